/**
 * Installs the batcher of the suite's k6 build (the extension `k6/x/wfcheck`) for load/k6/main-native.ts.
 * A module of its own, imported before load/k6/main.ts: modules run in import order, so the batcher is in
 * place when main.ts decides, at its init, where responses go (lib/api.ts prepareRequests).
 */
import wfcheck from 'k6/x/wfcheck';
import { useExtensionBatcher } from './contract.ts';

useExtensionBatcher(wfcheck);
