/**
 * usage: wfcheck target [--mode=auto|container|process] [--port=N] [--node-duration-ms=N]
 *
 * Boots the reference target on its own (in a Docker container when an engine is reachable, else as
 * a local process) and prints its BASE_URL and keys; Ctrl-C stops it. It writes no file: --out does
 * not apply.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { refuseOut, runCommand, usageFromSource } from '../core/settings/command.ts';
import { oneOf, wholeNumber } from '../core/settings/rules.ts';
import { bootTarget, type BootedTarget, type BootOptions } from '../fixtures/reference/boot/boot.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function printTarget(target: BootedTarget): void {
  const [a, b] = target.tenants;
  console.log(`wfcheck target is up (${target.how === 'container' ? 'Docker container' : 'local process'})`);
  console.log(`BASE_URL=${target.baseUrl}`);
  console.log(`API_KEY=${a.apiKey}    # tenant ${a.name} (fixture key from the seed file)`);
  if (b) console.log(`API_KEY_B=${b.apiKey}    # tenant ${b.name}`);
  for (const t of target.tenants.slice(2)) console.log(`# tenant ${t.name}: ${t.apiKey}`);
  console.log('Ctrl-C stops it.');
}

async function main(): Promise<number | undefined> {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string' },
      port: { type: 'string' },
      'node-duration-ms': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  refuseOut(values.out, 'target', 'it prints the BASE_URL and keys of the target it boots');
  const options: BootOptions = {
    mode: oneOf(values.mode, '--mode', ['auto', 'container', 'process'], 'auto'),
    port: wholeNumber(values.port, '--port'),
    nodeDurationMs: wholeNumber(values['node-duration-ms'], '--node-duration-ms'),
  };
  const target = await bootTarget(options);
  printTarget(target);
  // A target in a container leaves nothing in this process that keeps it running (a signal listener
  // does not): without this it would end at once, leaving the container behind for the next boot to remove.
  const running = setInterval(() => undefined, 60_000);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(running);
    console.log('stopping the target…');
    await target.stop();
    console.log('target stopped');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

runCommand('target', main, {
  usage: USAGE,
  failure: (err) => `cannot boot the target: ${err.message}`,
  failureCode: 1,
});
