/** Custom metrics of the load suite (created once, in the init context). */
import { Counter, Rate, Trend } from 'k6/metrics';

/** 1 for a checked response with at least one must-level contract violation. */
export const contractViolations = new Rate('contract_violations');
/** 1 for a checked response with should-level findings (reported, not gated by default). */
export const contractWarnings = new Rate('contract_warnings');
/** Responses that went through the contract checks (sampling makes this < http_reqs). */
export const contractChecked = new Counter('contract_checked_responses');
/** 429 answers received; each is retried after a backoff. */
export const rateLimited = new Counter('rate_limited_responses');
/** run → poll until terminal → output, in milliseconds. */
export const workflowDuration = new Trend('workflow_duration', true);
/** 1 when a started execution reached `finish` within the timeout. */
export const workflowCompleted = new Rate('workflow_completed');
