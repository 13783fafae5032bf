/**
 * The GitHub Action (action.yml at the root) is run here as a runner runs a composite action, without
 * GitHub: its metadata is read, each `run:` step goes in order through `bash --noprofile --norc -eo
 * pipefail` (the runner's bash) with the variables a runner sets (GITHUB_OUTPUT per step,
 * GITHUB_STEP_SUMMARY, GITHUB_ENV, GITHUB_PATH, GITHUB_ACTION_PATH = this repository, RUNNER_TEMP,
 * GITHUB_WORKSPACE = a fresh directory), `${{ }}` expressions evaluated (inputs, steps' outputs, the
 * status functions of `if:`), and a failing step skipping the steps that do not ask for always().
 * `uses:` steps cannot run here: they are checked to be the cache and upload steps the action promises,
 * with the paths and keys they would get.
 *
 * Its output is read the way the runner reads it: `::add-mask::` lines register a mask and are not
 * shown. The keys (canaries, in the reference target's seed) must appear in no other line of the log,
 * in no output, in the job summary, in GITHUB_ENV, nor in any file under the workspace.
 *
 * Against the reference target (booted as a process, passed to the action as base-url and keys): the
 * verdict is pass with 0 failures and the summary opens with the findings. Against the same target
 * behind a proxy that serves requests without a key: fail, the security finding first in the summary,
 * and the action exits 1. Against a closed port: incomplete, exit 2. A key without a base URL (a missing
 * secret) stops the action before anything runs. In mode explore with a fixed seed against the reference
 * target: pass, 0 failures, 0 new findings, the summary opening with the seed line and the findings, the
 * run recorded in the history that the action caches under the explore scope.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { recentExploreRuns } from '../core/history-store/queries.ts';
import { targetFingerprint } from '../core/history-store/records.ts';
import { withHistory } from '../core/history-store/store.ts';
import { INPUT_CRASHES } from '../fixtures/faults/input-crashes.ts';
import { writeExploreReport } from '../explore/report/report-view.ts';
import { bootTarget, type BootedTarget } from '../fixtures/reference/boot/boot.ts';
import { DEFAULT_SEED_FILE } from '../fixtures/reference/config.ts';
import { REFERENCE_BEHIND_PROXY_ENV, REPO_ROOT } from './conformance-run.ts';
import { exploreBehind } from './explore-behind.ts';
import { syntheticReport } from './demo/synthetic-matrix.ts';

const ACTION_FILE = join(REPO_ROOT, 'action.yml');

interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string | number | boolean>;
  'working-directory'?: string;
}
interface ActionMeta {
  name?: string;
  description?: string;
  inputs?: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs?: Record<string, { description?: string; value?: string }>;
  runs?: { using?: string; steps?: ActionStep[] };
}

const readAction = (text = readFileSync(ACTION_FILE, 'utf8')) => parse(text) as ActionMeta;

// ---------------------------------------------------------------------------------------------
// Expressions: the subset of GitHub's expression language an action's steps use.

type Value = string | number | boolean | null | undefined | { [k: string]: Value };
interface Context {
  [name: string]: Value | (() => boolean);
}

function tokenize(src: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(?:('(?:[^']|'')*')|(\d+(?:\.\d+)?)|(==|!=|&&|\|\||[!().[\]])|([A-Za-z_][\w-]*))/y;
  const rest = src.trimEnd();
  for (let pos = 0; pos < rest.length; pos = re.lastIndex) {
    re.lastIndex = pos;
    const m = re.exec(rest);
    if (!m) throw new Error(`cannot read expression at "${rest.slice(pos)}"`);
    tokens.push(m[0].trim());
  }
  return tokens;
}

/** Evaluates one expression (without `${{ }}`) against a context. */
function evaluate(src: string, ctx: Context): Value {
  const t = tokenize(src);
  let i = 0;
  const truthy = (v: Value) => v !== '' && v !== 0 && v !== false && v !== null && v !== undefined;
  const text = (v: Value) =>
    v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const eat = (tok: string) => {
    if (t[i] !== tok) throw new Error(`expected ${tok} at ${i} in "${src}"`);
    i++;
  };
  const primary = (): Value => {
    const tok = t[i++];
    if (tok === '(') {
      const v = or();
      eat(')');
      return v;
    }
    if (tok === '!') return !truthy(primary());
    if (tok.startsWith("'")) return tok.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(tok)) return Number(tok);
    if (tok === 'true' || tok === 'false') return tok === 'true';
    if (tok === 'null') return null;
    if (t[i] === '(') {
      eat('(');
      eat(')');
      const fn = ctx[tok];
      if (typeof fn !== 'function') throw new Error(`unknown function ${tok}()`);
      return fn();
    }
    let v = ctx[tok] as Value;
    while (t[i] === '.' || t[i] === '[') {
      const key = t[i++] === '.' ? t[i++] : String(primaryIndex());
      v = v && typeof v === 'object' ? v[key] : undefined;
    }
    return v;
  };
  const primaryIndex = () => {
    const v = or();
    eat(']');
    return v;
  };
  const compare = (): Value => {
    const left = primary();
    if (t[i] !== '==' && t[i] !== '!=') return left;
    const op = t[i++];
    const right = primary();
    const same = text(left).toLowerCase() === text(right).toLowerCase();
    return op === '==' ? same : !same;
  };
  const and = (): Value => {
    let v = compare();
    while (t[i] === '&&') {
      i++;
      const r = compare();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const or = (): Value => {
    let v = and();
    while (t[i] === '||') {
      i++;
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const v = or();
  if (i !== t.length) throw new Error(`unexpected "${t[i]}" in "${src}"`);
  return v;
}

/** A string with its `${{ }}` expressions replaced by their values. */
function substitute(s: string, ctx: Context): string {
  return s.replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_, expr: string) => {
    const v = evaluate(expr, ctx);
    return v === null || v === undefined ? '' : String(v);
  });
}

/** A step's `if:` (with or without `${{ }}`); without a status function it is `success() && (…)`. */
function condition(cond: string | undefined, ctx: Context): boolean {
  if (!cond) return (ctx.success as () => boolean)();
  const expr = cond.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const full = /\b(always|success|failure|cancelled)\(\)/.test(expr) ? expr : `success() && (${expr})`;
  const v = evaluate(full, ctx);
  return v !== '' && v !== 0 && v !== false && v !== null && v !== undefined;
}

test('the expression subset is evaluated as GitHub does', () => {
  const ctx: Context = {
    inputs: { mode: 'load', 'base-url': '' },
    steps: { prepare: { outputs: { 'install-needed': 'true' } } },
    always: () => true,
    success: () => false,
  };
  expect(evaluate("inputs.mode == 'LOAD'", ctx)).toBe(true);
  expect(evaluate("inputs.base-url || 'none'", ctx)).toBe('none');
  expect(evaluate("steps.prepare.outputs.install-needed == 'true' && inputs.mode", ctx)).toBe('load');
  expect(evaluate("!(steps.missing.outputs.x != '')", ctx)).toBe(true);
  expect(substitute('a ${{ inputs.mode }} b ${{ steps.x.outputs.y }}', ctx)).toBe('a load b ');
  expect(condition("steps.prepare.outputs.install-needed == 'true'", ctx)).toBe(false);
  expect(condition("always() && steps.prepare.outputs.install-needed == 'true'", ctx)).toBe(true);
});

// ---------------------------------------------------------------------------------------------
// The runner.

interface UsesStep {
  uses: string;
  name?: string;
  /** Its `if:` evaluated: would the runner have run it. */
  ran: boolean;
  with: Record<string, string>;
}
interface StepRecord {
  name: string;
  id?: string;
  kind: 'run' | 'uses';
  outcome: 'success' | 'failure' | 'skipped';
  code?: number;
}
interface ActionRun {
  /** The action's exit code: the first failing step's (0 when none failed). */
  exitCode: number;
  outputs: Record<string, string>;
  steps: StepRecord[];
  uses: UsesStep[];
  /** Everything the steps printed, as they printed it. */
  raw: string;
  /** What the runner would show: add-mask lines consumed, masked values replaced by ***. */
  shown: string;
  masks: string[];
  summary: string;
  envFile: string;
  outputFiles: string[];
  workspace: string;
}

/** Key=value and key<<DELIM heredoc lines of a GITHUB_OUTPUT / GITHUB_ENV file. */
function readCommandFile(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(path)) return out;
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const value: string[] = [];
      while (++i < lines.length && lines[i] !== heredoc[2]) value.push(lines[i]);
      out[heredoc[1]] = value.join('\n');
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}

function runBash(script: string, env: NodeJS.ProcessEnv, cwd: string, timeoutMs: number) {
  return new Promise<{ code: number; output: string }>((done) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    // A step that outlives its bound is stopped with everything it started (its own process group).
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal ? 137 : 1), output });
    });
  });
}

/** Variables of this test process that would point the harness elsewhere than the inputs say. */
const NOT_INHERITED = /^(BASE_URL|API_KEY|API_KEY_B|SEED|WFCHECK_.*|GITHUB_.*|RUNNER_.*|INPUT_.*|NODE_OPTIONS|TSX_.*)$/;

async function runAction(
  inputs: Record<string, string>,
  options: { jobEnv?: Record<string, string>; stepTimeoutMs?: number } = {},
): Promise<ActionRun> {
  const meta = readAction();
  const workspace = mkdtempSync(join(tmpdir(), 'wfcheck-action-ws-'));
  const runnerTemp = mkdtempSync(join(tmpdir(), 'wfcheck-action-tmp-'));
  const files = join(runnerTemp, '_runner_file_commands');
  mkdirSync(files, { recursive: true });
  const summaryFile = join(files, 'step_summary');
  const envFile = join(files, 'set_env');
  const pathFile = join(files, 'add_path');
  for (const f of [summaryFile, envFile, pathFile]) writeFileSync(f, '');

  const given = Object.keys(inputs).filter((k) => !(k in (meta.inputs ?? {})));
  if (given.length) throw new Error(`inputs the action does not declare: ${given.join(', ')}`);
  const inputValues = Object.fromEntries(
    Object.entries(meta.inputs ?? {}).map(([k, v]) => [k, inputs[k] ?? String(v.default ?? '')]),
  );
  const stepsCtx: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  let failed = false;
  let exitCode = 0;
  const ctx: Context = {
    inputs: inputValues,
    steps: stepsCtx as unknown as Value,
    github: { action_path: REPO_ROOT, workspace, run_id: '4242', run_attempt: '1' },
    runner: { os: 'Linux', temp: runnerTemp },
    env: { ...options.jobEnv },
    always: () => true,
    success: () => !failed,
    failure: () => failed,
    cancelled: () => false,
  };
  const baseEnv: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !NOT_INHERITED.test(k)),
  );
  Object.assign(baseEnv, options.jobEnv, {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION_PATH: REPO_ROOT,
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_ENV: envFile,
    GITHUB_PATH: pathFile,
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: 'Linux',
    FORCE_COLOR: '0',
  });

  const steps: StepRecord[] = [];
  const uses: UsesStep[] = [];
  const outputFiles: string[] = [];
  let raw = '';
  for (const [n, step] of (meta.runs?.steps ?? []).entries()) {
    const name = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${n + 1}`;
    const run = condition(step.if, ctx);
    const record = (outcome: StepRecord['outcome'], outputs: Record<string, string> = {}, code?: number) => {
      steps.push({ name, id: step.id, kind: step.uses ? 'uses' : 'run', outcome, code });
      if (step.id) stepsCtx[step.id] = { outputs, outcome, conclusion: outcome };
    };
    if (step.uses) {
      uses.push({
        uses: step.uses,
        name: step.name,
        ran: run,
        with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)])),
      });
      record(run ? 'success' : 'skipped');
      continue;
    }
    if (!run) {
      record('skipped');
      continue;
    }
    const outputFile = join(files, `set_output_${n}`);
    writeFileSync(outputFile, '');
    outputFiles.push(outputFile);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
    const added = readFileSync(pathFile, 'utf8').split('\n').filter(Boolean).reverse();
    const env: NodeJS.ProcessEnv = {
      ...baseEnv,
      ...readCommandFile(envFile),
      ...stepEnv,
      GITHUB_OUTPUT: outputFile,
      PATH: [...added, baseEnv.PATH ?? ''].join(delimiter),
    };
    const script = join(runnerTemp, `step-${n}.sh`);
    writeFileSync(script, substitute(step.run ?? '', ctx));
    const cwd = step['working-directory'] ? substitute(step['working-directory'], ctx) : workspace;
    const res = await runBash(script, env, cwd, options.stepTimeoutMs ?? 600_000);
    raw += `##[group]${name}\n${res.output}`;
    const outcome = res.code === 0 ? 'success' : 'failure';
    record(outcome, readCommandFile(outputFile), res.code);
    if (res.code !== 0 && !failed) {
      failed = true;
      exitCode = res.code;
    }
  }

  const outputs = Object.fromEntries(
    Object.entries(meta.outputs ?? {}).map(([k, v]) => [k, substitute(String(v.value ?? ''), ctx)]),
  );
  // The runner consumes ::add-mask:: lines and hides their values in everything it shows afterwards.
  const masks: string[] = [];
  const shown = raw
    .split('\n')
    .filter((line) => {
      const mask = /^::add-mask::(.*)$/.exec(line.trim());
      if (mask) masks.push(mask[1]);
      return !mask;
    })
    .map((line) => masks.reduce((l, m) => (m ? l.split(m).join('***') : l), line))
    .join('\n');
  const result: ActionRun = {
    exitCode,
    outputs,
    steps,
    uses,
    raw,
    shown,
    masks,
    summary: readFileSyncSafe(summaryFile),
    envFile: readFileSyncSafe(envFile),
    outputFiles: outputFiles.map(readFileSyncSafe),
    workspace,
  };
  rmSync(runnerTemp, { recursive: true, force: true, maxRetries: 3 });
  return result;
}

function readFileSyncSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** Every place a key must not be: the raw log (but the add-mask lines), outputs, summary, env, files. */
function leaks(run: ActionRun, keys: string[]): string[] {
  const forms = keys.flatMap((k) => [k, encodeURIComponent(k), Buffer.from(k).toString('base64')]);
  const rawWithoutMasks = run.raw
    .split('\n')
    .filter((l) => !l.trim().startsWith('::add-mask::'))
    .join('\n');
  const sources = [
    { where: 'the log', text: rawWithoutMasks },
    { where: 'the outputs', text: JSON.stringify(run.outputs) + run.outputFiles.join('\n') },
    { where: 'the job summary', text: run.summary },
    { where: 'GITHUB_ENV', text: run.envFile },
    ...filesUnder(run.workspace)
      .filter((f) => statSync(f).size < 50_000_000)
      .map((f) => ({ where: f, text: readFileSync(f, 'latin1') })),
  ];
  return sources.flatMap((s) => forms.filter((k) => s.text.includes(k)).map((k) => `${s.where}: ${k.slice(0, 12)}…`));
}

/** What the summary's markdown headings are, in order. */
const headings = (md: string) => md.split('\n').filter((l) => /^#{1,4} /.test(l));

const targetHash = (baseUrl: string) => createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);

/** The uses steps: the caches keyed by the target's hash (never the key), the reports uploaded. */
function checkUsesSteps(run: ActionRun, baseUrl: string, keys: string[]): void {
  const ws = run.workspace;
  const reportDir = join(ws, 'reports', 'conformance');
  const find = (uses: string) => run.uses.filter((u) => u.uses === uses);
  const [restore] = find('actions/cache/restore@v4');
  const [save] = find('actions/cache/save@v4');
  const [upload] = find('actions/upload-artifact@v4');
  const prefix = `wfcheck-conformance-${targetHash(baseUrl)}-`;
  for (const cache of [restore, save]) {
    expect(cache, 'a cache restore and a cache save of the history').toBeDefined();
    expect(cache.ran).toBe(true);
    expect(cache.with.path.split('\n').filter(Boolean)).toEqual([
      `${ws}/reports/history.sqlite*`,
      `${ws}/reports/cache`,
    ]);
    expect(cache.with.key).toBe(`${prefix}4242-1`);
    expect(cache.with.key).not.toContain(baseUrl.replace(/^https?:\/\//, ''));
  }
  expect(restore.with['restore-keys']).toBe(prefix);
  expect(upload.ran).toBe(true);
  expect(upload.with).toMatchObject({ name: 'wfcheck-conformance', path: reportDir, 'if-no-files-found': 'warn' });
  // Only load runs keep the k6 build; the npm cache only serves an install that is needed.
  expect(find('actions/cache@v4').find((u) => u.with.path.includes('.tools'))?.ran).toBe(false);
  for (const u of run.uses) for (const k of keys) expect(JSON.stringify(u.with)).not.toContain(k);
  // Restored before the run, saved and uploaded after it.
  const order = run.steps.map((s) => s.id ?? s.name);
  const at = (name: string) => order.findIndex((s) => s.includes(name));
  expect(at('Restore the history')).toBeLessThan(at('run'));
  expect(at('Keep the history')).toBeGreaterThan(at('run'));
  expect(at('Upload the reports')).toBeGreaterThan(at('run'));
}

// ---------------------------------------------------------------------------------------------

test('action.yml declares a composite action: described inputs, outputs with values, shells on run steps', () => {
  const problems = (meta: ActionMeta): string[] => {
    const out: string[] = [];
    if (!meta.name) out.push('no name');
    if (!meta.description) out.push('no description');
    for (const [k, v] of Object.entries(meta.inputs ?? {})) if (!v?.description) out.push(`input ${k}: no description`);
    for (const [k, v] of Object.entries(meta.outputs ?? {})) {
      if (!v?.description) out.push(`output ${k}: no description`);
      if (!/\$\{\{\s*steps\.[\w-]+\.outputs\.[\w-]+\s*\}\}/.test(v?.value ?? '')) out.push(`output ${k}: no value`);
    }
    if (meta.runs?.using !== 'composite') out.push('runs.using is not composite');
    const steps = meta.runs?.steps ?? [];
    const ids = new Set(steps.map((s) => s.id).filter(Boolean));
    for (const [i, s] of steps.entries()) {
      if (s.run && !s.shell) out.push(`step ${i + 1} (${s.name}): a run step without shell`);
      if (!s.run === !s.uses) out.push(`step ${i + 1} (${s.name}): needs one of run, uses`);
      if (s.uses && !/^[\w.-]+\/[\w./-]+@v\d+$/.test(s.uses)) out.push(`step ${i + 1}: ${s.uses} is not pinned`);
      // A key in a script would be written into the step's script file and shown in its log header.
      if (/inputs\.api-key/.test(s.run ?? '')) out.push(`step ${i + 1}: a key is expanded into a script`);
      const text = JSON.stringify(s);
      for (const m of text.matchAll(/steps\.([\w-]+)\.outputs/g))
        if (!ids.has(m[1])) out.push(`step ${i + 1}: reads outputs of an unknown step ${m[1]}`);
    }
    for (const v of Object.values(meta.outputs ?? {}))
      for (const m of (v?.value ?? '').matchAll(/steps\.([\w-]+)\.outputs/g))
        if (!ids.has(m[1])) out.push(`an output reads an unknown step ${m[1]}`);
    for (const name of ['base-url', 'api-key', 'api-key-b', 'waivers', 'strict', 'shard', 'mode'])
      if (!meta.inputs?.[name]) out.push(`input ${name} missing`);
    for (const name of ['verdict', 'failures', 'report']) if (!meta.outputs?.[name]) out.push(`output ${name} missing`);
    return out;
  };
  const text = readFileSync(ACTION_FILE, 'utf8');
  expect(problems(readAction(text))).toEqual([]);
  // The check is not blind.
  const broken = readAction(text);
  delete broken.inputs!.strict.description;
  broken.outputs!.verdict.value = 'pass';
  broken.runs!.steps![0].shell = undefined;
  broken.runs!.steps!.push({ name: 'leak', shell: 'bash', run: 'echo ${{ inputs.api-key }}' });
  expect(problems(broken)).toEqual([
    'input strict: no description',
    'output verdict: no value',
    `step 1 (${broken.runs!.steps![0].name}): a run step without shell`,
    `step ${broken.runs!.steps!.length}: a key is expanded into a script`,
  ]);
});

test('a key without a base URL (a missing secret) stops the action before it runs anything', async () => {
  const key = `wfk_CANARY_MISSING_URL_${Date.now().toString(36)}`;
  const run = await runAction({ 'api-key': key });
  try {
    expect(run.exitCode).toBe(2);
    expect(run.shown).toMatch(/::error title=wfcheck action::api-key is set but base-url is empty/);
    expect(run.steps.filter((s) => s.outcome !== 'skipped').map((s) => s.id ?? s.name)).toEqual(['prepare']);
    expect(run.outputs).toEqual({ verdict: '', failures: '', report: '', 'new-findings': '', site: '' });
    expect(run.masks).toContain(key);
    expect(leaks(run, [key])).toEqual([]);
  } finally {
    rmSync(run.workspace, { recursive: true, force: true });
  }
});

test.describe('the action run as a runner runs it', () => {
  test.describe.configure({ mode: 'serial' });
  const CANARY_A = `wfk_CANARY_ACTION_A_${Date.now().toString(36)}q8Zr`;
  const CANARY_B = `wfk_CANARY_ACTION_B_${Date.now().toString(36)}m3Xv`;
  let dir: string;
  let target: BootedTarget;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = mkdtempSync(join(tmpdir(), 'wfcheck-action-seed-'));
    const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, 'utf8')) as { tenants: { apiKey: string }[] };
    seed.tenants[0].apiKey = CANARY_A;
    seed.tenants[1].apiKey = CANARY_B;
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
    target = await bootTarget({ mode: 'process', env: { TARGET_SEED_FILE: join(dir, 'seed.json') }, log: () => {} });
  });
  test.afterAll(async () => {
    await target?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('against the reference target: pass, 0 failures, the findings first in the job summary', {
    tag: '@conformance-run',
  }, async () => {
    test.setTimeout(15 * 60_000);
    const run = await runAction(
      {
        'base-url': target.baseUrl,
        'api-key': CANARY_A,
        'api-key-b': CANARY_B,
        args: '--seed 4242 --timeout 420 --workers 2',
      },
      // As a workflow's env: would set them: the reference target is behind a base URL like any other.
      { jobEnv: REFERENCE_BEHIND_PROXY_ENV },
    );
    try {
      const tail = run.shown.slice(-3000);
      expect(run.outputs.verdict, tail).toBe('pass');
      expect(run.outputs.failures).toBe('0');
      expect(run.outputs.report).toBe(join(run.workspace, 'reports', 'conformance', 'report.json'));
      expect(existsSync(run.outputs.report)).toBe(true);
      const report = JSON.parse(readFileSync(run.outputs.report, 'utf8'));
      expect(report.exitCode).toBe(0);
      expect(report.summary.findings.failures).toBe(0);
      expect(report.summary.exchanges).toBeGreaterThan(100);
      // The action runs the installed command: its replay hints name it, not the repository's npm scripts.
      expect(report.meta.command).toBe('wfcheck conformance --seed 4242');
      expect(run.shown).toContain('(replay: wfcheck conformance --seed 4242)');
      expect(run.exitCode).toBe(0);
      expect(run.steps.filter((s) => s.kind === 'run').every((s) => s.outcome === 'success')).toBe(true);

      expect(run.summary.split('\n')[0]).toMatch(/^## wfcheck conformance: PASS/);
      const [, firstSection] = headings(run.summary);
      expect(firstSection).toMatch(/^### Findings \(0\)/);
      expect(run.summary).toContain('artifact `wfcheck-conformance`');
      expect(run.shown).toMatch(/::notice title=wfcheck::wfcheck conformance: PASS/);

      checkUsesSteps(run, target.baseUrl, [CANARY_A, CANARY_B]);
      expect(run.masks).toEqual(expect.arrayContaining([CANARY_A, CANARY_B]));
      expect(leaks(run, [CANARY_A, CANARY_B])).toEqual([]);
      console.log(
        `outputs: ${JSON.stringify(run.outputs)}\nsummary:\n${run.summary.split('\n').slice(0, 12).join('\n')}`,
      );
    } finally {
      rmSync(run.workspace, { recursive: true, force: true });
    }
  });

  test('behind a proxy that serves requests without a key: fail, the security finding first, exit 1', {
    tag: '@conformance-run',
  }, async () => {
    test.setTimeout(10 * 60_000);
    // Every request the harness sends without a valid key is forwarded with tenant A's: the target
    // serves them, which the auth suite must find as one security finding.
    const upstream = new URL(target.baseUrl);
    const proxy: Server = createServer((req, res) => {
      const headers = { ...req.headers, host: upstream.host, authorization: `Bearer ${CANARY_A}` };
      const out = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
    const baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
    const run = await runAction(
      { 'base-url': baseUrl, 'api-key': CANARY_A, args: '--seed 4242 --timeout 300 --workers 2 --grep AUTH-' },
      { jobEnv: REFERENCE_BEHIND_PROXY_ENV },
    );
    try {
      const tail = run.shown.slice(-3000);
      expect(run.outputs.verdict, tail).toBe('fail');
      expect(Number(run.outputs.failures)).toBeGreaterThanOrEqual(1);
      expect(run.exitCode).toBe(1);
      const report = JSON.parse(readFileSync(run.outputs.report, 'utf8'));
      expect(Number(run.outputs.failures)).toBe(report.summary.findings.failures);
      // The last step fails with the harness's code; the verdict, the history and the upload ran before it.
      expect(run.steps.at(-1)).toMatchObject({ kind: 'run', outcome: 'failure', code: 1 });
      expect(run.uses.filter((u) => u.ran).map((u) => u.uses)).toEqual(
        expect.arrayContaining(['actions/cache/save@v4', 'actions/upload-artifact@v4']),
      );

      expect(run.summary.split('\n')[0]).toMatch(/^## wfcheck conformance: FAIL — \d+ findings? \(\d+ security\)/);
      const [, firstSection, firstFinding] = headings(run.summary);
      expect(firstSection).toMatch(/^### Findings \([1-9]/);
      expect(firstFinding).toMatch(/^#### F1 \[FAIL\]/);
      expect(run.shown).toMatch(/::error title=wfcheck::wfcheck conformance: FAIL/);
      expect(leaks(run, [CANARY_A, CANARY_B])).toEqual([]);
    } finally {
      await new Promise((ok) => proxy.close(ok));
      rmSync(run.workspace, { recursive: true, force: true });
    }
  });
  test('mode load:smoke: the gates as the verdict, report.json as the report, the k6 build cached', {
    tag: '@k6',
  }, async () => {
    test.setTimeout(10 * 60_000);
    const run = await runAction({
      mode: 'load:smoke',
      'base-url': target.baseUrl,
      'api-key': CANARY_A,
      args: '--seed 4242 --duration 5s',
    });
    try {
      const tail = run.shown.slice(-3000);
      const reportDir = join(run.workspace, 'reports', 'load', 'action-smoke');
      expect(run.outputs.report, tail).toBe(join(reportDir, 'report.json'));
      expect(run.shown).toContain(`wfcheck load --profile smoke --out ${reportDir} --seed 4242 --duration 5s`);
      expect(run.shown).toContain('seed 4242 (replay: wfcheck load --profile smoke --duration 5s --seed 4242)');
      const summary = JSON.parse(readFileSync(run.outputs.report, 'utf8'));
      const breached = summary.thresholds.filter((t: { ok: boolean }) => !t.ok).length;
      expect(run.outputs.failures).toBe(String(breached));
      expect(run.outputs.verdict).toBe(breached === 0 ? 'pass' : 'fail');
      expect(run.exitCode).toBe(breached === 0 ? 0 : 1);
      expect(run.summary.split('\n')[0]).toMatch(/^## wfcheck load \(smoke\): (PASS|FAIL)/);
      expect(headings(run.summary)[1]).toMatch(/^### Breached gates \(\d+\)/);
      const k6 = run.uses.find((u) => u.uses === 'actions/cache@v4' && u.with.path.includes('.tools'));
      expect(k6).toMatchObject({ ran: true, with: { path: join(REPO_ROOT, '.tools', 'bin') } });
      expect(k6!.with.key).toMatch(/^wfcheck-k6-Linux-[0-9a-f]{16}$/);
      const save = run.uses.find((u) => u.uses === 'actions/cache/save@v4')!;
      expect(save.with.key).toBe(`wfcheck-load-smoke-${targetHash(target.baseUrl)}-4242-1`);
      expect(run.uses.find((u) => u.uses === 'actions/upload-artifact@v4')!.with).toMatchObject({
        name: 'wfcheck-load-smoke',
        path: reportDir,
      });
      expect(leaks(run, [CANARY_A, CANARY_B])).toEqual([]);
    } finally {
      rmSync(run.workspace, { recursive: true, force: true });
    }
  });

  test('mode explore with a fixed seed: pass, 0 failures, the seed line and the findings first, the history cached', {
    tag: '@conformance-run',
  }, async () => {
    test.setTimeout(5 * 60_000);
    const run = await runAction({
      mode: 'explore',
      seed: '4242',
      'budget-s': '90',
      'base-url': target.baseUrl,
      'api-key': CANARY_A,
      'api-key-b': CANARY_B,
    });
    try {
      const tail = run.shown.slice(-3000);
      const reportDir = join(run.workspace, 'reports', 'explore');
      expect(run.outputs.verdict, tail).toBe('pass');
      expect(run.outputs.failures).toBe('0');
      expect(run.outputs['new-findings']).toBe('0');
      expect(run.outputs.report).toBe(join(reportDir, 'report.json'));
      expect(run.exitCode).toBe(0);
      const report = JSON.parse(readFileSync(run.outputs.report, 'utf8'));
      expect(report).toMatchObject({ kind: 'wfcheck-explore', seed: 4242, seedGiven: true, exitCode: 0, findings: [] });
      expect(report.budget.seconds).toBe(90);
      // The first run of this target in the history: recorded, nothing seen before, nothing gone.
      expect(report.history).toMatchObject({ runId: 1, findings: { new: 0, seenBefore: 0, unknown: 0 }, gone: [] });
      expect(report.history.skipped).toBeUndefined();

      const lines = run.summary.split('\n');
      expect(lines[0]).toMatch(
        /^## wfcheck explore: PASS — 0 deviation\(s\) \(0 new, 0 seen before\), 0 warning\(s\)$/,
      );
      expect(lines).toContain('explore seed 4242: replay with wfcheck explore --seed 4242 --budget-s 90');
      expect(lines.indexOf('explore seed 4242: replay with wfcheck explore --seed 4242 --budget-s 90')).toBeLessThan(
        lines.findIndex((l) => l.startsWith('### ')),
      );
      const [, firstSection, second] = headings(run.summary);
      expect(firstSection).toBe('### Findings (0)');
      expect(second).toBe('### The exploration');
      expect(run.summary).toContain('artifact `wfcheck-explore`');
      expect(run.shown).toMatch(/::notice title=wfcheck::wfcheck explore: PASS/);
      expect(run.shown).toContain('explore seed 4242: replay with wfcheck explore --seed 4242 --budget-s 90');
      expect(run.shown).toMatch(/wfcheck explore --out \S+ --seed 4242 --budget-s 90/);

      // The history: kept under a scope of its own, per target (a hash of the base URL, never the key).
      const prefix = `wfcheck-explore-${targetHash(target.baseUrl)}-`;
      const restore = run.uses.find((u) => u.uses === 'actions/cache/restore@v4')!;
      const save = run.uses.find((u) => u.uses === 'actions/cache/save@v4')!;
      for (const cache of [restore, save]) {
        expect(cache.ran).toBe(true);
        expect(cache.with.path.split('\n').filter(Boolean)).toEqual([
          `${run.workspace}/reports/history.sqlite*`,
          `${run.workspace}/reports/cache`,
        ]);
        expect(cache.with.key).toBe(`${prefix}4242-1`);
      }
      expect(restore.with['restore-keys']).toBe(prefix);
      expect(run.uses.find((u) => u.uses === 'actions/upload-artifact@v4')!.with).toMatchObject({
        name: 'wfcheck-explore',
        path: reportDir,
      });
      const { value: recorded } = withHistory(join(run.workspace, 'reports', 'history.sqlite'), (db) =>
        recentExploreRuns(db, targetFingerprint(target.baseUrl, CANARY_A, 'external'), 10),
      );
      expect(recorded?.map((r) => [r.seed, r.seedGiven, r.exitCode, r.findings, r.budgetS])).toEqual([
        [4242, true, 0, 0, 90],
      ]);
      expect(leaks(run, [CANARY_A, CANARY_B])).toEqual([]);
      console.log(`outputs: ${JSON.stringify(run.outputs)}\nsummary:\n${lines.slice(0, 16).join('\n')}`);
    } finally {
      rmSync(run.workspace, { recursive: true, force: true });
    }
  });
});

test('against a closed port: incomplete, exit 2, the summary still written', { tag: '@conformance-run' }, async () => {
  test.setTimeout(5 * 60_000);
  const key = `wfk_CANARY_DOWN_${Date.now().toString(36)}`;
  const closed = createServer();
  await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((ok) => closed.close(ok));
  const run = await runAction(
    { 'base-url': `http://127.0.0.1:${port}/v1`, 'api-key': key, args: '--request-timeout 2000' },
    { jobEnv: REFERENCE_BEHIND_PROXY_ENV },
  );
  try {
    expect(run.outputs.verdict, run.shown.slice(-3000)).toBe('incomplete');
    expect(run.exitCode).toBe(2);
    expect(run.outputs.failures).toBe('0');
    expect(existsSync(run.outputs.report)).toBe(true);
    expect(run.summary.split('\n')[0]).toMatch(/^## wfcheck conformance: INCOMPLETE/);
    expect(headings(run.summary)[1]).toMatch(/^### Findings/);
    expect(leaks(run, [key])).toEqual([]);
  } finally {
    rmSync(run.workspace, { recursive: true, force: true });
  }
});

test('mode explore refuses a seed or budget it cannot use, and the seed in another mode', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ mode: 'explore', seed: 'tonight' }, /seed must be a non-negative integer, got "tonight"/],
    [{ mode: 'explore', 'budget-s': '0' }, /budget-s must be a positive number of seconds, got "0"/],
    [{ mode: 'conformance', seed: '7' }, /seed and budget-s are inputs of mode explore/],
    [{ mode: 'explore', strict: 'true' }, /waivers and strict apply to conformance runs/],
  ];
  for (const [inputs, message] of cases) {
    const run = await runAction(inputs);
    try {
      expect(run.exitCode, JSON.stringify(inputs)).toBe(2);
      expect(run.shown).toMatch(message);
      expect(run.steps.filter((s) => s.outcome !== 'skipped').map((s) => s.id ?? s.name)).toEqual(['prepare']);
    } finally {
      rmSync(run.workspace, { recursive: true, force: true });
    }
  }
});

test('the local runner reads key=value and heredoc lines of GITHUB_OUTPUT as the runner does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-action-files-'));
  try {
    const f = join(dir, 'out');
    appendFileSync(f, 'a=1\nb<<EOF\nline 1\nline 2\nEOF\nc=x=y\n');
    expect(readCommandFile(f)).toEqual({ a: '1', b: 'line 1\nline 2', c: 'x=y' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('mode explore counts deviations: one crash shown on five operations is one failure, its findings listed', {
  tag: '@slow',
}, async () => {
  const crash = INPUT_CRASHES.find((m) => m.id === 'crash-long-ids')!;
  const { report, bodies } = await exploreBehind(crash, 4242);
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-action-verdict-'));
  try {
    const out = writeExploreReport(report, join(dir, 'explore'), bodies);
    const env = {
      ...process.env,
      INPUT_MODE: 'explore',
      INPUT_REPORT_DIR: join(dir, 'explore'),
      INPUT_REPORT: out.json,
      INPUT_EXIT_CODE: '1',
      INPUT_SEED: '4242',
      INPUT_ARTIFACT: 'wfcheck-explore',
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
    };
    const step = spawnSync(process.execPath, [join(REPO_ROOT, 'action', 'verdict.mjs')], { env, encoding: 'utf8' });
    expect(step.status, step.stderr).toBe(0);
    expect(readFileSync(join(dir, 'output'), 'utf8')).toContain('failures=1\n');
    const summary = readFileSync(join(dir, 'summary'), 'utf8');
    expect(summary.split('\n')[0]).toBe(
      '## wfcheck explore: FAIL — 1 deviation(s) in 5 finding(s) across operations, 0 warning(s)',
    );
    expect(summary).toContain('### Findings (5)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------
// Mode matrix: the implementation matrix from the cached history, tonight's reports imported first.

/** Two named implementations' reports, as the conformance jobs of a nightly workflow upload them. */
function matrixReports(foreign: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-action-reports-'));
  const reports = [
    syntheticReport({
      seed: 4242,
      startedAt: '2026-03-01T02:17:00.000Z',
      failing: ['SEARCH-200-ENVELOPE'],
      implementation: { name: 'vendor-a', version: '2.0' },
      credential: foreign,
    }),
    syntheticReport({ seed: 4242, startedAt: '2026-03-01T02:18:00.000Z', implementation: { name: 'vendor-b' } }),
  ].map((r, i) => ({
    ...r,
    // The two answer the status of a body over the payload limit (E2005) differently.
    openPoints: [
      ...r.openPoints,
      {
        point: 'limit-status-E2005',
        requirementId: 'LIMIT-OPERATIONS',
        question: 'The status of a run or a generation over the 100KB payload limit (E2005)',
        values: [{ value: i ? '413' : '400', count: 2, sentence: `run over 100KB: HTTP ${i ? 413 : 400} (E2005)` }],
      },
    ],
  }));
  reports.forEach((r, i) => {
    mkdirSync(join(dir, `wfcheck-conformance-${i}`), { recursive: true });
    writeFileSync(join(dir, `wfcheck-conformance-${i}`, 'report.json'), JSON.stringify(r));
  });
  return dir;
}

test("mode matrix: tonight's reports imported into the cached history, the site built, uploaded and summarised", async () => {
  const foreign = 'sk_live_vendor_key_in_a_report_5e6f7a';
  const reports = matrixReports(foreign);
  const run = await runAction({ mode: 'matrix', reports: `${reports}/wfcheck-conformance-*` });
  try {
    const tail = run.shown.slice(-3000);
    const site = join(run.workspace, 'reports', 'matrix');
    expect(run.outputs.verdict, tail).toBe('pass');
    expect(run.exitCode).toBe(0);
    expect(run.outputs.site).toBe(site);
    expect(run.outputs.report).toBe(join(site, 'matrix.json'));
    // vendor-a misses one must clause in its latest run; vendor-b none.
    expect(run.outputs.failures).toBe('1');
    for (const f of ['index.html', 'matrix.json', 'impl/vendor-a.html', 'impl/vendor-b.html'])
      expect(existsSync(join(site, f)), f).toBe(true);
    const matrix = JSON.parse(readFileSync(run.outputs.report, 'utf8'));
    expect(matrix.implementations.map((i: { label: string }) => i.label)).toEqual(['vendor-a', 'vendor-b']);
    expect(run.shown).toMatch(/wfcheck history import \S+wfcheck-conformance-0\/report.json/);

    const lines = run.summary.split('\n');
    expect(lines[0]).toBe(`## wfcheck matrix: 2 implementation(s) × ${matrix.requirements.length} requirements`);
    expect(run.summary).toMatch(
      /^Interop: \*\*\d+\*\* of \d+ must and should requirements met by every implementation/m,
    );
    expect(run.summary).toMatch(
      /^\| vendor-a \| 2\.0 \| 2026-03-01T02:17:00\.000Z \| 4242 \| \d+\/\d+ \| first run \|$/m,
    );
    expect(run.summary).toContain('artifact `wfcheck-matrix`');
    // Where they split on the open points, and what a client of both must tolerate.
    expect(run.summary).toMatch(/^### Where implementations split: 1 of \d+ open point\(s\) answered$/m);
    expect(run.summary).toContain('| limit-status-E2005 | `400`: vendor-a · `413`: vendor-b | 400 or 413 |');
    expect(existsSync(join(site, 'open-points.html'))).toBe(true);

    // One history of every implementation, kept from night to night under a scope of its own.
    const restore = run.uses.find((u) => u.uses === 'actions/cache/restore@v4')!;
    const save = run.uses.find((u) => u.uses === 'actions/cache/save@v4')!;
    for (const cache of [restore, save]) {
      expect(cache.ran).toBe(true);
      expect(cache.with.key).toBe('wfcheck-matrix-implementations-4242-1');
    }
    expect(restore.with['restore-keys']).toBe('wfcheck-matrix-implementations-');
    expect(run.uses.find((u) => u.uses === 'actions/upload-artifact@v4')!.with).toMatchObject({
      name: 'wfcheck-matrix',
      path: site,
    });
    // The vendor's key in its report reaches neither the history nor the site nor the log.
    expect(leaks(run, [foreign])).toEqual([]);
  } finally {
    rmSync(run.workspace, { recursive: true, force: true });
    rmSync(reports, { recursive: true, force: true });
  }
});

test('mode matrix: a file that is not a report fails the step; the site is still built from what is there', async () => {
  const reports = matrixReports('unused-credential-000000');
  writeFileSync(join(reports, 'package.json'), JSON.stringify({ name: 'not-a-report', version: '1.0.0' }));
  const run = await runAction({ mode: 'matrix', reports: `${reports}/wfcheck-conformance-0 ${reports}/package.json` });
  try {
    expect(run.outputs.verdict, run.shown.slice(-3000)).toBe('incomplete');
    expect(run.exitCode).toBe(2);
    expect(run.shown).toMatch(/package\.json is not a wfcheck conformance report \(report\.json\): it has no meta/);
    const matrix = JSON.parse(readFileSync(run.outputs.report, 'utf8'));
    expect(matrix.implementations.map((i: { label: string }) => i.label)).toEqual(['vendor-a']);
    expect(run.summary.split('\n')[0]).toMatch(/^## wfcheck matrix: INCOMPLETE \(exit 2\) — 1 implementation\(s\)/);
  } finally {
    rmSync(run.workspace, { recursive: true, force: true });
    rmSync(reports, { recursive: true, force: true });
  }
});

test('a named implementation: its own cache line and artifact; name, reports and keys refused where they do not apply', async () => {
  const prepare = (inputs: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'wfcheck-action-prepare-'));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_WORKSPACE: dir,
      GITHUB_RUN_ID: '7',
      GITHUB_RUN_ATTEMPT: '1',
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k}`, v])),
    };
    const step = spawnSync(process.execPath, [join(REPO_ROOT, 'action', 'prepare.mjs')], { env, encoding: 'utf8' });
    const outputs = readCommandFile(join(dir, 'output'));
    rmSync(dir, { recursive: true, force: true });
    return { code: step.status, out: step.stdout, outputs };
  };
  const named = prepare({ MODE: 'conformance', NAME: 'Vendor A', TARGET_VERSION: '2.0', SHARD: '1/3' });
  expect(named.code, named.out).toBe(0);
  expect(named.outputs).toMatchObject({
    artifact: 'wfcheck-conformance-vendor-a-shard-1-of-3',
    'cache-key': 'wfcheck-conformance-shard-1-of-3-reference-vendor-a-7-1',
    site: '',
  });
  expect(prepare({ MODE: 'explore', NAME: 'go' }).outputs.artifact).toBe('wfcheck-explore-go');
  const cases: [Record<string, string>, RegExp][] = [
    [{ MODE: 'matrix', API_KEY: 'wfk_should_not_be_here_123' }, /mode matrix makes no request and takes no key/],
    [{ MODE: 'load', NAME: 'go' }, /name and target-version apply to modes conformance and explore/],
    [{ MODE: 'conformance', TARGET_VERSION: '1.0' }, /target-version is the version of a named implementation/],
    [{ MODE: 'conformance', REPORTS: 'x/report.json' }, /reports is an input of mode matrix/],
    [{ MODE: 'conformance', NAME: 'a\tb' }, /name must be a label of at most 64 printable characters/],
  ];
  for (const [inputs, message] of cases) {
    const r = prepare(inputs);
    expect(r.code, JSON.stringify(inputs)).toBe(2);
    expect(r.out).toMatch(message);
  }
});
