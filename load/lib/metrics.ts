/** Custom metrics of the load suite (created once, in the init context). */
import { Counter, Rate, Trend } from 'k6/metrics';

/**
 * One sample per checked response: 1 when it has a must-level contract
 * violation. Its sample count (passes + fails) is the number of checked responses.
 */
export const contractViolations = new Rate('contract_violations');
/** Checked responses with should-level findings (reported, not gated by default). */
export const contractWarnings = new Counter('contract_warnings');
/** 429 answers received; each is retried after a backoff. */
export const rateLimited = new Counter('rate_limited_responses');
/** run → poll until terminal → output, in milliseconds. */
export const workflowDuration = new Trend('workflow_duration', true);
/** 1 when a started execution reached `finish` within the timeout. */
export const workflowCompleted = new Rate('workflow_completed');
