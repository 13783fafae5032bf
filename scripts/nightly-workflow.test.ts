/**
 * The nightly pipeline users copy (.github/workflows/nightly.yml) is checked two ways:
 * - actionlint (pinned; `GOBIN=$PWD/.tools/bin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12`),
 *   when it is installed — skipped with the install command otherwise;
 * - always, a structural check of what the pipeline promises: nightly schedule, sharded conformance
 *   run, load smoke, reports uploaded, the third-party target wired from secrets, actions pinned, no
 *   secret printed, commands that exist in package.json.
 * Both checkers are shown to reject a broken workflow, so a pass means something.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../fixtures/faults/run-conformance.ts';

const WORKFLOW = join(REPO_ROOT, '.github', 'workflows', 'nightly.yml');
const ACTIONLINT = [join(REPO_ROOT, '.tools', 'bin', 'actionlint'), '/usr/local/bin/actionlint', '/usr/bin/actionlint'].find((p) => existsSync(p));
const ACTIONLINT_INSTALL = 'GOBIN="$PWD/.tools/bin" go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12';

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string>; if?: string };
type Job = { steps?: Step[]; strategy?: { matrix?: Record<string, unknown[]> }; needs?: string[]; 'runs-on'?: string; 'timeout-minutes'?: number };

/** Problems of a workflow text against what the nightly pipeline must do; [] = fine. */
function workflowProblems(text: string): string[] {
  const problems: string[] = [];
  let wf: { on?: Record<string, unknown>; jobs?: Record<string, Job>; permissions?: Record<string, string> };
  try {
    wf = parse(text);
  } catch (err) {
    return [`not YAML: ${(err as Error).message}`];
  }
  const jobs = Object.entries(wf.jobs ?? {});
  const steps = jobs.flatMap(([name, j]) => (j.steps ?? []).map((s) => ({ job: name, ...s })));
  const runs = steps.map((s) => s.run ?? '').join('\n');
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

  const schedule = (wf.on?.schedule as { cron?: string }[] | undefined) ?? [];
  if (!schedule.some((s) => typeof s.cron === 'string' && s.cron.trim().split(/\s+/).length === 5)) problems.push('no nightly schedule (on.schedule[].cron)');
  if (!wf.on || !('workflow_dispatch' in wf.on)) problems.push('cannot be run by hand (on.workflow_dispatch)');
  if (wf.permissions?.contents !== 'read') problems.push('permissions are not reduced to contents: read');

  for (const [name, job] of jobs) {
    if (!job['runs-on']) problems.push(`job ${name} has no runs-on`);
    if (typeof job['timeout-minutes'] !== 'number') problems.push(`job ${name} has no timeout-minutes (a hung target would hold the runner for 6 hours)`);
  }
  for (const s of steps) {
    if (!s.uses) continue;
    const ref = /^[\w.-]+\/[\w./-]+@([\w.-]+)$/.exec(s.uses)?.[1];
    if (!ref) problems.push(`job ${s.job}: "${s.uses}" is not pinned to a version`);
    else if (/^(main|master|latest|HEAD)$/i.test(ref)) problems.push(`job ${s.job}: "${s.uses}" follows a branch, not a release`);
  }

  const conformanceJob = jobs.find(([, j]) => (j.steps ?? []).some((s) => /npm run conformance\b/.test(s.run ?? '')));
  if (!conformanceJob) problems.push('no step runs npm run conformance');
  else {
    const [name, job] = conformanceJob;
    const shards = job.strategy?.matrix?.shard;
    if (!Array.isArray(shards) || shards.length < 2) problems.push(`job ${name} is not sharded (strategy.matrix.shard)`);
    if (!(job.steps ?? []).some((s) => /--shard=\$\{\{\s*matrix\.shard\s*\}\}\/\d+/.test(s.run ?? ''))) problems.push(`job ${name} does not pass --shard to the test runner`);
    if (!(job.steps ?? []).some((s) => /actions\/upload-artifact@/.test(s.uses ?? '') && String(s.with?.path ?? '').includes('reports/conformance') && s.if === 'always()')) problems.push(`job ${name} does not upload reports/conformance (always)`);
  }
  if (!/npm run load\b.*--profile smoke/.test(runs)) problems.push('no load smoke (npm run load -- --profile smoke)');
  if (!steps.some((s) => /actions\/upload-artifact@/.test(s.uses ?? '') && String(s.with?.path ?? '').includes('reports/load'))) problems.push('the load reports are not uploaded');
  for (const script of ['conformance', 'load']) if (!pkg.scripts[script]) problems.push(`package.json has no "${script}" script`);

  for (const secret of ['WFCHECK_BASE_URL', 'WFCHECK_API_KEY', 'WFCHECK_API_KEY_B']) {
    if (!new RegExp(`secrets\\.${secret}\\b`).test(text)) problems.push(`the third-party target's ${secret} is not taken from secrets`);
  }
  for (const name of ['BASE_URL', 'API_KEY', 'API_KEY_B']) {
    if (!steps.some((s) => /npm run conformance\b/.test(s.run ?? '') && s.env && name in s.env)) problems.push(`the conformance step does not receive ${name} through env`);
  }
  if (/(echo|printf)[^\n]*\$\{\{\s*secrets\./.test(text)) problems.push('a secret is printed');
  return problems;
}

test('the nightly workflow does what the pipeline promises (structural check)', () => {
  expect(workflowProblems(readFileSync(WORKFLOW, 'utf8'))).toEqual([]);
});

test('the structural check rejects broken pipelines', () => {
  const good = readFileSync(WORKFLOW, 'utf8');
  const broken: [string, string, RegExp][] = [
    ['unpinned action', good.replace('actions/checkout@v4', 'actions/checkout@main'), /follows a branch/],
    ['no sharding', good.replace(/ -- --shard=\$\{\{ matrix\.shard \}\}\/3/, ''), /--shard/],
    ['no upload', good.replace(/path: reports\/conformance\//, 'path: somewhere-else/'), /upload reports\/conformance/],
    ['no secrets', good.replace(/secrets\.WFCHECK_API_KEY_B/g, "''"), /WFCHECK_API_KEY_B/],
    ['no schedule', good.replace(/schedule:\n\s+- cron: '[^']+'\n/, ''), /schedule/],
    ['printed secret', good.replace('run: npm ci --no-audit --no-fund', 'run: echo ${{ secrets.WFCHECK_API_KEY }}'), /secret is printed/],
    ['not YAML', good + '\n  : : [', /not YAML/],
  ];
  for (const [what, text, expected] of broken) {
    expect(workflowProblems(text).join('\n'), what).toMatch(expected);
  }
});

test('actionlint accepts the nightly workflow and rejects a broken one', () => {
  test.skip(!ACTIONLINT, `actionlint is not installed (${ACTIONLINT_INSTALL})`);
  const lint = (file: string) => {
    try {
      return { code: 0, out: execFileSync(ACTIONLINT!, ['-no-color', file], { encoding: 'utf8', cwd: REPO_ROOT, stdio: 'pipe' }) };
    } catch (err) {
      const e = err as { status?: number; stdout?: string; stderr?: string };
      return { code: e.status ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  };
  const ok = lint(WORKFLOW);
  expect(ok.out).toBe('');
  expect(ok.code).toBe(0);
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-actionlint-'));
  try {
    const bad = join(dir, 'bad.yml');
    writeFileSync(bad, readFileSync(WORKFLOW, 'utf8').replace('${{ matrix.shard }}/3', '${{ matrix.shards }}/3'));
    const res = lint(bad);
    expect(res.code).not.toBe(0);
    expect(res.out).toMatch(/shards/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
