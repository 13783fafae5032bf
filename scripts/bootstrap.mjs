#!/usr/bin/env node
/**
 * Entry point behind `npm run conformance`, `npm test` and the other top-level commands, so that each
 * works on a fresh clone: it installs the locked dependencies on first use (or when package-lock.json
 * changed), then runs the command. Plain JavaScript on purpose: it must run before TypeScript tooling exists.
 *
 *   node scripts/bootstrap.mjs <program> [args…]     program: a node_modules/.bin name (tsx, playwright, …)
 *                                                    or a JavaScript file of the repository (bin/wfcheck.mjs)
 *
 * The `wfcheck` command started here is told so (WFCHECK_INVOKED_AS=npm): the user ran an npm script,
 * so the command lines the harness prints in its hints are npm scripts (`npm run load -- --seed 7`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const lockHash = createHash('sha256')
  .update(readFileSync(join(root, 'package-lock.json')))
  .digest('hex');
const marker = join(root, 'node_modules', '.wfcheck-installed');

function installed() {
  return existsSync(marker) && readFileSync(marker, 'utf8') === lockHash;
}

if (!installed()) {
  console.error('wfcheck: installing dependencies from package-lock.json (npm ci) …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const res = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (res.status !== 0) {
    console.error('wfcheck: npm ci failed; see the output above');
    process.exit(res.status ?? 1);
  }
  writeFileSync(marker, lockHash);
}

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error('usage: node scripts/bootstrap.mjs <program> [args…]');
  process.exit(2);
}
const bin = join(root, 'node_modules', '.bin', program);
const [command, commandArgs] = /\.m?js$/.test(program)
  ? [process.execPath, [resolve(root, program), ...args]]
  : [existsSync(bin) ? bin : program, args];
const env = program === 'bin/wfcheck.mjs' ? { ...process.env, WFCHECK_INVOKED_AS: 'npm' } : process.env;
const res = spawnSync(command, commandArgs, { cwd: process.cwd(), stdio: 'inherit', env });
if (res.error) {
  console.error(`wfcheck: could not run ${program}: ${res.error.message}`);
  process.exit(1);
}
process.exit(res.status ?? (res.signal ? 1 : 0));
