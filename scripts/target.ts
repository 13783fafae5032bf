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
import { runStandalone, TARGET_OPTIONS } from '../fixtures/reference/boot/standalone.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number | undefined> {
  const { values } = parseArgs({ options: TARGET_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  refuseOut(values.out, 'target', 'it prints the BASE_URL and keys of the target it boots');
  await runStandalone({
    mode: oneOf(values.mode, '--mode', ['auto', 'container', 'process'], 'auto'),
    port: wholeNumber(values.port, '--port'),
    nodeDurationMs: wholeNumber(values['node-duration-ms'], '--node-duration-ms'),
  });
}

runCommand('target', main, {
  usage: USAGE,
  failure: (err) => `cannot boot the target: ${err.message}`,
  failureCode: 1,
});
