/**
 * The k6 entry for the suite's own k6 build (load/xk6: k6 with the extension `k6/x/wfcheck`): load/k6/main.ts,
 * with the responses of offloaded checks batched and sent by the extension instead of the VUs' JavaScript.
 * `npm run load` picks this entry when the k6 binary has the extension (load/node/ensure-k6.ts); a stock k6
 * runs load/k6/main.ts. Teardown waits until the last batch has been checked, so every response is recorded
 * before the test ends.
 *
 * Each export is a binding of this module, not `export … from`: k6 looks the scenario function up by name
 * before every iteration, and a re-exported name is resolved through the other module each time, which
 * costs more than the lookup of a binding of its own.
 */
import './lib/use-extension-batcher.ts';
import * as suite from './main.ts';

export const options = suite.options;
export const setup = suite.setup;
export const lifecycle = suite.lifecycle;
export const generate = suite.generate;
export const readMix = suite.readMix;
export const uploads = suite.uploads;
export const statusRead = suite.statusRead;
export const teardown = suite.teardown;
export const handleSummary = suite.handleSummary;
