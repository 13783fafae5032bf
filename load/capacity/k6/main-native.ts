/**
 * The capacity entry for the suite's own k6 build (load/xk6): load/capacity/k6/main.ts with the responses of
 * offloaded checks batched and sent by the extension, as load/k6/main-native.ts does for load/k6/main.ts. Each
 * export is a binding of this module: a re-exported name is resolved through the other module before
 * every iteration.
 */
import '../../k6/lib/use-extension-batcher.ts';
import * as search from './main.ts';

export const options = search.options;
export const setup = search.setup;
export const traffic = search.traffic;
export const idle = search.idle;
export const teardown = search.teardown;
export const handleSummary = search.handleSummary;
