/** Custom metrics of the load suite (created once, in the init context). */
import { Counter, Rate, Trend } from 'k6/metrics';

/**
 * Responses that went through the contract checks, tagged with the operation. Counted in batches (per
 * operation and batch, and at the end of a VU's work), not with one sample per response: a metric sample
 * is costly in k6's interpreter, a share of a saturated generator's time.
 */
export const contractChecked = new Counter('contract_checked');
/** Checked responses with a must-level contract violation, tagged with the operation (gated at 0); added at once. */
export const contractViolations = new Counter('contract_violations');
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
/** Responses sent to the Node checker that it could not check (a harness failure: gated at 0). */
export const contractUnchecked = new Counter('contract_unchecked');
/**
 * Batches the VUs sent to the Node checker (offloaded checks): in http_reqs, but not requests to the API
 * under test.
 */
export const contractBatchesSent = new Counter('contract_handovers');
/** Requests setup() made (discovery, trial runs): in http_reqs, but in no per-operation figure (lib/api.ts). */
export const setupRequests = new Counter('setup_requests');
