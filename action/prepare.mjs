/**
 * First step of the GitHub Action (action.yml): masks the keys, checks the inputs, and decides every
 * path and cache key the later steps use, written to GITHUB_OUTPUT.
 *
 * Inputs arrive as environment variables (composite actions get no INPUT_* of their own; action.yml
 * maps each input it needs). The keys are read only to be masked and to check that they come with a
 * base URL: a key without a base URL is most often a missing secret, and the run would then check the
 * reference target and pass, which says nothing about the implementation.
 *
 * Plain JavaScript with no dependency: it runs before the harness is installed.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ACTION_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const input = (name) => (env[`INPUT_${name}`] ?? '').trim();

/** Stops the action before anything runs; the message is an error annotation on the step. */
function refuse(message) {
  console.log(`::error title=wfcheck action::${message}`);
  process.exit(2);
}

// Masked before anything else is printed: a key passed in clear (not from a secret) is hidden from
// every later line of the job's log.
for (const name of ['API_KEY', 'API_KEY_B']) {
  const key = env[`INPUT_${name}`] ?? '';
  for (const line of key.split(/\r?\n/)) if (line.trim()) console.log(`::add-mask::${line.trim()}`);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) refuse(`wfcheck needs Node.js 20 or later (found ${process.versions.node}); add actions/setup-node`);

const outputFile = env.GITHUB_OUTPUT;
if (!outputFile) refuse('GITHUB_OUTPUT is not set: this script runs as a step of the wfcheck action');
const workspace = env.GITHUB_WORKSPACE || process.cwd();

// mode: conformance | load | merge | explore | matrix; `load:<profile>` is a shorthand for mode load + profile.
let mode = input('MODE') || 'conformance';
// Empty: the harness's default profile (the profile table is the harness's; this step runs before it is installed).
let profile = input('PROFILE');
const shorthand = /^load:([\w-]+)$/.exec(mode);
if (shorthand) [mode, profile] = ['load', shorthand[1]];
if (!['conformance', 'load', 'merge', 'explore', 'matrix'].includes(mode))
  refuse(`mode must be conformance, load (with profile), merge, explore or matrix, got "${mode}"`);

// The implementation a run is recorded under (a column of the matrix), and its version: labels, as the
// harness reads them (at most 64 printable characters).
const name = input('NAME');
const targetVersion = input('TARGET_VERSION');
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
for (const [what, value] of [
  ['name', name],
  ['target-version', targetVersion],
])
  if (value.length > 64 || CONTROL.test(value)) refuse(`${what} must be a label of at most 64 printable characters`);
if ((name || targetVersion) && !['conformance', 'explore'].includes(mode))
  refuse("name and target-version apply to modes conformance and explore (a merge keeps the shards' name)");
if (targetVersion && !name) refuse('target-version is the version of a named implementation: give name too');
const reports = input('REPORTS');
if (reports && mode !== 'matrix') refuse('reports is an input of mode matrix (the report.json files to import)');

// The generative run's own inputs; the other modes take a seed in args, as their commands do.
const seed = input('SEED');
const budgetS = input('BUDGET_S');
if ((seed || budgetS) && mode !== 'explore')
  refuse('seed and budget-s are inputs of mode explore (other modes take --seed in args)');
if (seed && !/^\d{1,15}$/.test(seed)) refuse(`seed must be a non-negative integer, got "${seed}"`);
if (budgetS && !(/^\d+(\.\d+)?$/.test(budgetS) && Number(budgetS) > 0))
  refuse(`budget-s must be a positive number of seconds, got "${budgetS}"`);

if (profile && !/^[\w-]+$/.test(profile))
  refuse(`profile must be a name of the harness's profile table (wfcheck load --help), got "${profile}"`);
const profileSlug = profile ? `-${profile}` : '';

const shard = input('SHARD');
if (shard) {
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  if (!m || +m[1] < 1 || +m[1] > +m[2]) refuse(`shard must be i/n with 1 ≤ i ≤ n, got "${shard}"`);
  if (mode !== 'conformance') refuse('shard applies to mode conformance only (merge the shards with mode merge)');
}
const strict = input('STRICT').toLowerCase();
if (!['', 'true', 'false'].includes(strict)) refuse(`strict must be true or false, got "${strict}"`);
if (mode === 'load' && (strict === 'true' || input('WAIVERS')))
  console.log('::warning title=wfcheck action::waivers and strict apply to conformance runs; a load run ignores them');
if (mode === 'merge' && !input('SHARDS')) refuse('mode merge needs shards: the directories of the shard results');
if (mode === 'explore' && (strict === 'true' || input('WAIVERS')))
  refuse('waivers and strict apply to conformance runs; mode explore has none');

const baseUrl = input('BASE_URL').replace(/\/+$/, '');
const hasKey = Boolean(input('API_KEY'));
// The matrix is built from the history alone: it makes no request, so a key given to it is a mistake.
if (mode === 'matrix' && (hasKey || input('API_KEY_B')))
  refuse('mode matrix makes no request and takes no key: leave api-key and api-key-b empty');
if (mode !== 'merge' && mode !== 'matrix') {
  if (!baseUrl && hasKey)
    refuse('api-key is set but base-url is empty (a missing secret?): leave both empty to check the reference target');
  if (baseUrl && !hasKey) refuse('base-url is set but api-key is empty (a missing secret?)');
}

const workDir = resolve(workspace, input('WORKING_DIRECTORY') || '.');
mkdirSync(workDir, { recursive: true });

// The target is named in cache keys by a hash of its base URL: never the key, never the URL in clear; a
// named implementation adds its name, so that several on one target (the reference) keep apart histories.
// The matrix keeps one history of every implementation.
const nameSlug = name
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '-')
  .replace(/^-+|-+$/g, '')
  .slice(0, 40);
const target =
  mode === 'matrix'
    ? 'implementations'
    : `${baseUrl ? createHash('sha256').update(baseUrl).digest('hex').slice(0, 16) : 'reference'}${nameSlug ? `-${nameSlug}` : ''}`;
const shardSlug = shard ? `-shard-${shard.replace('/', '-of-')}` : '';
const reportDir =
  mode === 'load'
    ? join(workDir, 'reports', 'load', `action${profileSlug}`)
    : join(workDir, 'reports', mode === 'explore' || mode === 'matrix' ? mode : 'conformance');
const report = join(reportDir, mode === 'matrix' ? 'matrix.json' : 'report.json');

// One cache line per kind of run and target. A merge records the same history an unsharded run does;
// a shard records none (the merge does), but keeps its own discovery memory. The scope comes before
// the target so that no restore prefix of one scope matches another's keys.
// A generative run keeps its own history (its findings by fingerprint, night after night) in a scope of its own.
const scope =
  mode === 'load' ? `load${profileSlug}` : mode === 'explore' || mode === 'matrix' ? mode : `conformance${shardSlug}`;
const runId = `${env.GITHUB_RUN_ID || 'local'}-${env.GITHUB_RUN_ATTEMPT || '1'}`;
const cachePrefix = `wfcheck-${scope}-${target}-`;

const digest = (files) => {
  const h = createHash('sha256');
  for (const f of files) if (existsSync(f)) h.update(readFileSync(f));
  return h.digest('hex').slice(0, 16);
};
const lock = join(ACTION_ROOT, 'package-lock.json');
const marker = join(ACTION_ROOT, 'node_modules', '.wfcheck-installed');
const lockHash = createHash('sha256').update(readFileSync(lock)).digest('hex');
const installed = existsSync(marker) && readFileSync(marker, 'utf8') === lockHash;
const os = env.RUNNER_OS || process.platform;

// A merge's verdict is the conformance verdict of the whole run: it takes the unsharded run's name.
// A named implementation's reports are named after it, so that a matrix job can download them all.
const named = nameSlug ? `-${nameSlug}` : '';
const artifactName =
  input('ARTIFACT_NAME') ||
  (mode === 'load'
    ? `wfcheck-load${profileSlug}`
    : mode === 'explore'
      ? `wfcheck-explore${named}`
      : mode === 'matrix'
        ? 'wfcheck-matrix'
        : `wfcheck-conformance${named}${shardSlug}`);

const outputs = {
  mode,
  profile,
  shard,
  seed,
  'budget-s': budgetS,
  'work-dir': workDir,
  'report-dir': reportDir,
  report,
  site: mode === 'matrix' ? reportDir : '',
  target,
  'cache-key': `${cachePrefix}${runId}`,
  'cache-restore-key': cachePrefix,
  'install-needed': String(!installed),
  'npm-cache-key': `wfcheck-npm-${os}-${lockHash.slice(0, 16)}`,
  'tools-dir': join(ACTION_ROOT, '.tools', 'bin'),
  'k6-cache-key': `wfcheck-k6-${os}-${digest([join(ACTION_ROOT, 'load', 'node', 'ensure-k6.ts')])}`,
  artifact: artifactName,
};
appendFileSync(
  outputFile,
  Object.entries(outputs)
    .map(([k, v]) => `${k}=${v}\n`)
    .join(''),
);
console.log(
  `wfcheck action: ${mode}${mode === 'load' ? ` (profile ${profile || 'the default'})` : ''}${shard ? `, shard ${shard}` : ''}${
    mode === 'explore' ? ` (seed ${seed || 'fresh'}${budgetS ? `, budget ${budgetS} s` : ''})` : ''
  }${name ? ` of ${name}${targetVersion ? ` ${targetVersion}` : ''}` : ''}; ${
    mode === 'matrix'
      ? 'from the history of every implementation'
      : `target ${baseUrl ? `#${target}` : 'the reference target (booted by the harness)'}`
  }; reports in ${reportDir}`,
);
