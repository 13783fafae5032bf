/** `npm run target:image`: builds (or reuses) the reference target's container image. */
import { ensureTargetImage } from '../fixtures/target/boot/image.ts';

ensureTargetImage({ log: (line) => console.log(line) }).then(
  ({ tag, built }) => console.log(`${built ? 'built' : 'reused'} ${tag}`),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
