#!/usr/bin/env node
/**
 * The `wfcheck` command: one subcommand per entry point in scripts/, each run as a child process in
 * the caller's directory (where its reports go) with the caller's environment and arguments, and
 * ending with the child's exit code. `npm run conformance` and the other npm scripts come in here too.
 *
 * The harness prints command lines in its hints (usage, "replay: …", "run … first"), and they must name
 * the command the user has: `wfcheck conformance --seed 7` here, `npm run conformance -- --seed 7` when an
 * npm script of a clone started this (scripts/bootstrap.mjs says so in WFCHECK_INVOKED_AS). The
 * subcommand learns which from WFCHECK_INVOKED_AS, set here for it and every process it starts.
 *
 * The harness ships as TypeScript: tsx (a dependency) is registered through NODE_OPTIONS, so that
 * every Node process of a run (the command, the Playwright runner and its workers, the reference
 * target) loads it, also from an installed package, whose files Playwright does not compile itself
 * (it leaves whatever lies under node_modules to Node).
 * Plain JavaScript, so that it runs before anything is compiled; it imports nothing of the harness.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Node 22.12 or later (package.json's engines): on an older one better-sqlite3 13 and the harness's
// dependencies fail in ways that name nothing useful, so the command says it at once.
const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number);
if (nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 12)) {
  console.error(`wfcheck: needs Node.js 22.12 or later (22 or 24); this is ${process.version}`);
  process.exit(2);
}
const SCRIPTS = join(PACKAGE_ROOT, 'scripts');

/**
 * Subcommands, in the order `wfcheck --help` lists them. The npm script that runs one in a clone is its
 * words joined by `:` (`load compare`: `npm run load:compare`), as core/settings/command-line.ts
 * formats it.
 */
const COMMANDS = [
  {
    words: ['conformance'],
    script: 'conformance.ts',
    summary: 'run the conformance suites against a target (without BASE_URL: the reference target)',
  },
  {
    words: ['load'],
    script: 'load.ts',
    summary: 'run the k6 load suite and gate on the SLOs (k6 is built from its Go module when absent)',
  },
  {
    words: ['load', 'compare'],
    script: 'load-compare.ts',
    summary: 'set a load run against a saved baseline; fail on regressions',
  },
  {
    words: ['load', 'distributed'],
    script: 'load-distributed.ts',
    summary: 'one load test split over N k6 processes, gated on the merged data',
  },
  {
    words: ['load', 'capacity'],
    script: 'load-capacity.ts',
    summary: 'the highest arrival rate at which every gate holds, found by a ramp and bisection',
  },
  {
    words: ['history'],
    script: 'history.ts',
    summary: 'what changed between runs, a requirement run by run, the list of runs',
  },
  {
    words: ['history', 'import'],
    script: 'history-import.ts',
    npm: 'history:import',
    summary: "record a conformance report made elsewhere (its report.json) under an implementation's name",
  },
  {
    words: ['matrix'],
    script: 'matrix.ts',
    npm: 'matrix',
    summary: 'the implementation matrix: a static site of every implementation of the history, per requirement',
  },
  {
    words: ['report', 'merge'],
    script: 'report-merge.ts',
    summary: 'one verdict from the shards of a sharded conformance run (--shard i/n)',
  },
  {
    words: ['target'],
    script: 'target.ts',
    summary: 'boot the reference target on its own; print its BASE_URL and keys',
  },
  {
    words: ['target', 'image'],
    script: 'build-target-image.ts',
    summary: "build (or reuse) the reference target's container image",
  },
  {
    words: ['explore'],
    script: 'explore.ts',
    summary: 'explore a target with generated inputs (fast-check)',
  },
];

/** A subcommand is offered only when its script is there (a version may not ship every one). */
const available = COMMANDS.filter((c) => existsSync(join(SCRIPTS, c.script)));

function version() {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;
}

function help() {
  const width = Math.max(...available.map((c) => c.words.join(' ').length));
  const lines = available.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}`);
  return [
    'usage: wfcheck <command> [options]',
    '',
    'Conformance, contract and load harness for the Workflow Automation Service public API.',
    '',
    'commands:',
    ...lines,
    '',
    'wfcheck <command> --help     its options and environment variables',
    'wfcheck --version            the harness version',
    '',
    'target: BASE_URL (ending in /v1) and API_KEY (API_KEY_B: a second tenant) name the implementation',
    'under test; without BASE_URL the reference target is booted (in Docker when an engine is reachable).',
    'Outputs go under the current directory: reports/conformance, reports/load/<run>, reports/explore, …;',
    "--out <dir> moves a command's outputs (its --help says where they go by default). The run history",
    '(reports/history.sqlite) and the discovery memory (reports/cache) move with WFCHECK_HISTORY and',
    'WFCHECK_CACHE_DIR.',
    'Exit codes: 0 passed; 1 failures (a gate breached); 2 the run was incomplete or could not start.',
  ].join('\n');
}

/** The longest subcommand the arguments start with: `load compare` before `load`. */
function commandOf(args) {
  const matches = available.filter((c) => c.words.every((w, i) => args[i] === w));
  return matches.sort((a, b) => b.words.length - a.words.length)[0];
}

/** npm script names (`load:compare`) are accepted too, as are their dashed forms (`load-compare`). */
function byScriptName(name) {
  return available.find((c) => c.words.join(':') === name || c.words.join('-') === name);
}

function fail(message) {
  console.error(`wfcheck: ${message}\n\n${help()}`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args[0] === '--version' || args[0] === '-V') {
  console.log(version());
  process.exit(0);
}
if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
  console.log(help());
  process.exit(0);
}
if (args.length === 0) fail('name a command');
const command = commandOf(args) ?? byScriptName(args[0]);
if (!command) {
  const family = available.filter((c) => c.words[0] === args[0]).map((c) => `wfcheck ${c.words.join(' ')}`);
  fail(family.length ? `${args[0]} is followed by one of: ${family.join(', ')}` : `unknown command: ${args[0]}`);
}
const rest = args.slice(commandOf(args) ? command.words.length : 1);

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const nodeOptions = process.env.NODE_OPTIONS ?? '';
const env = {
  ...process.env,
  NODE_OPTIONS: nodeOptions.includes(tsx) ? nodeOptions : `${nodeOptions} --import=${tsx}`.trim(),
  // The harness compiles with its own options, not with those of a tsconfig.json where it is started.
  TSX_TSCONFIG_PATH: join(PACKAGE_ROOT, 'tsconfig.json'),
  // Only an npm script of a clone says `npm`; anything else that starts this (a shell, npx, the image's
  // entrypoint, the GitHub Action) ran the installed command.
  WFCHECK_INVOKED_AS: process.env.WFCHECK_INVOKED_AS === 'npm' ? 'npm' : 'wfcheck',
};

const child = spawn(process.execPath, [join(SCRIPTS, command.script), ...rest], {
  cwd: process.cwd(),
  env,
  stdio: 'inherit',
});

// Ctrl-C reaches the command from the terminal itself (it shares this process group): passed on
// again, the command and what it started would see it twice, and a second Ctrl-C means "stop at
// once". So it is only awaited here. A signal sent to this process alone (a supervisor, a timeout)
// is passed on, so that the command stops what it started (the target, the test runner, k6).
const forward = (signal) => child.kill(signal);
const awaitChild = () => undefined;
process.on('SIGINT', awaitChild);
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, forward);

child.on('error', (err) => {
  console.error(`wfcheck: could not run ${command.words.join(' ')}: ${err.message}`);
  process.exit(2);
});
child.on('close', (code, signal) => {
  process.off('SIGINT', awaitChild);
  for (const s of ['SIGTERM', 'SIGHUP']) process.off(s, forward);
  // Ended by a signal: end the same way, so that the caller sees what stopped it.
  if (signal) process.kill(process.pid, signal);
  else process.exitCode = code ?? 2;
});
