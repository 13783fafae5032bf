/**
 * Installs the extension's hand-over (`k6/x/wfcheck`, the suite's k6 build) for load/main-native.ts.
 * A module of its own, imported before load/main.ts: modules run in import order, so the hand-over is in
 * place when main.ts settles, at its init, where responses go (lib/api.ts prepareRequests).
 */
import wfcheck from 'k6/x/wfcheck';
import { handOverNatively } from './lib/contract.ts';

handOverNatively(wfcheck);
