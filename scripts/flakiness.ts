/** `npm run flakiness`: the conformance suite N times, every verdict that varies reported (see fixtures/proof/flakiness.ts). */
import { main } from '../fixtures/proof/flakiness.ts';

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`flakiness: ${err.stack ?? err.message}`);
    process.exit(2);
  },
);
