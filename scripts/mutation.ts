/** `npm run mutation`: the conformance suite against each injected bug and legal variant (see fixtures/proof/mutation.ts). */
import { main } from '../fixtures/proof/mutation.ts';

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`mutation: ${err.stack ?? err.message}`);
    process.exit(2);
  },
);
