/**
 * `npm run target`: boots the reference target on its own and prints its base URL and keys.
 *
 *   npm run target [-- --mode=auto|container|process --port=N --node-duration-ms=N]
 */
import { parseArgs as parseCli } from 'node:util';
import { bootTarget, type BootOptions } from '../fixtures/target/boot/boot.ts';

function parseArgs(argv: string[]): BootOptions {
  const opts: BootOptions = {};
  for (const arg of argv) {
    const [name, value] = arg.replace(/^--/, '').split('=');
    if (name === 'mode' && (value === 'auto' || value === 'container' || value === 'process')) opts.mode = value;
    else if (name === 'port' && /^\d+$/.test(value ?? '')) opts.port = Number(value);
    else if (name === 'node-duration-ms' && /^\d+$/.test(value ?? '')) opts.nodeDurationMs = Number(value);
    else throw new Error(`unknown argument ${arg} (use --mode=auto|container|process, --port=N, --node-duration-ms=N)`);
  }
  return opts;
}

async function main(): Promise<void> {
  const target = await bootTarget(parseArgs(process.argv.slice(2)));
  const [a, b] = target.tenants;
  console.log(`wfcheck target is up (${target.how === 'container' ? 'Docker container' : 'local process'})`);
  console.log(`BASE_URL=${target.baseUrl}`);
  console.log(`API_KEY=${a.apiKey}    # tenant ${a.name} (fixture key from the seed file)`);
  if (b) console.log(`API_KEY_B=${b.apiKey}    # tenant ${b.name}`);
  for (const t of target.tenants.slice(2)) console.log(`# tenant ${t.name}: ${t.apiKey}`);
  console.log('Ctrl-C stops it.');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping the target…');
    await target.stop();
    console.log('target stopped');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: Error) => {
  console.error(`cannot boot the target: ${err.message}`);
  process.exit(1);
});
