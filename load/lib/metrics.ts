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
/** Executions the lifecycle aborted mid-run (abort answered 2xx). */
export const executionsAborted = new Counter('executions_aborted');
/** Canvases generate created on the target (its footprint); 0 when every call overwrites one canvas. */
export const canvasesCreated = new Counter('canvases_created');
/** Responses handed to the Node check sink that it could not check (a harness failure: gated at 0). */
export const contractUnchecked = new Counter('contract_unchecked');
/** Hand-over requests to the Node checker (offload mode): in http_reqs, but not requests to the API under test. */
export const contractHandovers = new Counter('contract_handovers');
