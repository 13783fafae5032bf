/** Provides the pinned k6 (built from its Go module when absent) and prints its path; used by CI's setup. */
import { ensureK6 } from '../load/node/ensure-k6.ts';

ensureK6().then(
  (bin) => console.log(bin),
  (err: Error) => { console.error(err.message); process.exit(1); },
);
