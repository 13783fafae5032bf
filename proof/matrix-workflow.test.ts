/**
 * The implementation matrix users copy (.github/workflows/matrix.yml) is checked as the nightly pipeline
 * is (proof/nightly-workflow.test.ts): by actionlint where it is installed, and always by a structural
 * check of what it promises — several implementations verified under their names, the matrix built from
 * their reports whatever their verdicts, its history kept by the action, the site published with the
 * Pages rights given to the deploying job alone. Both are shown to reject broken workflows.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from './conformance-run.ts';
import {
  ACTION,
  ACTIONLINT,
  ACTIONLINT_INSTALL,
  actionPromises,
  isLocalAction,
  type Job,
  type Step,
  type Workflow,
} from './workflow.testkit.ts';

const MATRIX_WORKFLOW = join(REPO_ROOT, '.github', 'workflows', 'matrix.yml');

type Promises = ReturnType<typeof actionPromises>;
type Jobs = [string, Job & { permissions?: Record<string, string>; if?: string }][];
const mode = (s: Step) => String(s.with?.mode ?? 'conformance');
const byMode = (m: string) => (s: Step) => isLocalAction(s) && mode(s) === m;

/** What every job owes: a timeout, actions pinned to a release, only inputs the action declares. */
function jobProblems(jobs: Jobs, action: Promises): string[] {
  const problems: string[] = [];
  for (const [name, job] of jobs) {
    if (typeof job['timeout-minutes'] !== 'number') problems.push(`job ${name} has no timeout-minutes`);
    for (const s of job.steps ?? []) {
      if (isLocalAction(s)) {
        for (const k of Object.keys(s.with ?? {}))
          if (!action.inputs.has(k)) problems.push(`job ${name}: the action has no input "${k}"`);
        continue;
      }
      const ref = s.uses && /^[\w.-]+\/[\w./-]+@([\w.-]+)$/.exec(s.uses)?.[1];
      if (s.uses && (!ref || /^(main|master|latest|HEAD)$/i.test(ref)))
        problems.push(`job ${name}: "${s.uses}" is not pinned to a release`);
    }
  }
  return problems;
}

/** A job verifies at least two implementations (a strategy matrix), each run named from the matrix. */
function verifyProblems([name, job]: Jobs[number], action: Promises): string[] {
  const problems: string[] = [];
  const run = (job.steps ?? []).find(byMode('conformance'))!;
  const axes = Object.values(job.strategy?.matrix ?? {}).filter(Array.isArray);
  if (!axes.some((values) => values.length >= 2)) problems.push(`job ${name} verifies fewer than two implementations`);
  if (!/\$\{\{\s*matrix\.[\w-]+\s*\}\}/.test(String(run.with?.name ?? '')))
    problems.push(`job ${name} does not name each run after its implementation (name: \${{ matrix.… }})`);
  if (!action.uploadsReports) problems.push(`job ${name} does not upload its reports`);
  return problems;
}

/**
 * The matrix job: after the runs whatever their verdicts, it downloads their reports, gives them to the
 * action in mode matrix (which keeps the history) and hands the site to upload-pages-artifact.
 */
function buildProblems([name, job]: Jobs[number], verifying: string, action: Promises): string[] {
  const problems: string[] = [];
  const steps = job.steps ?? [];
  const build = steps.findIndex(byMode('matrix'));
  if (!(typeof job.needs === 'string' ? [job.needs] : (job.needs ?? [])).includes(verifying))
    problems.push(`job ${name} does not wait for the runs (needs: ${verifying})`);
  if (!/\balways\(\)/.test(String(job.if ?? '')))
    problems.push(`job ${name} is skipped when an implementation fails (if: always())`);
  const download = steps.findIndex(
    (s) =>
      /actions\/download-artifact@/.test(s.uses ?? '') && /wfcheck-conformance-/.test(String(s.with?.pattern ?? '')),
  );
  if (download < 0 || download > build) problems.push(`job ${name} does not download the runs' reports first`);
  const path = String(steps[download]?.with?.path ?? '\u0000');
  if (!String(steps[build]?.with?.reports ?? '').includes(path))
    problems.push(`job ${name} does not give the downloaded reports to the matrix (reports: ${path}/…)`);
  if (!action.keepsHistory) problems.push('the action does not keep the history of the matrix');
  const id = steps[build]?.id;
  const pages = steps.findIndex(
    (s) =>
      /actions\/upload-pages-artifact@/.test(s.uses ?? '') &&
      id !== undefined &&
      new RegExp(`steps\\.${id}\\.outputs\\.site`).test(String(s.with?.path ?? '')),
  );
  if (pages < build)
    problems.push(`job ${name} does not hand the site to upload-pages-artifact (path: steps.<id>.outputs.site)`);
  return problems;
}

/** A job after the matrix deploys the site, with the Pages rights given to it alone. */
function publishProblems(jobs: Jobs, building: string): string[] {
  const deploying = jobs.find(([, j]) => (j.steps ?? []).some((s) => /actions\/deploy-pages@/.test(s.uses ?? '')));
  if (!deploying) return ['no job deploys the site (actions/deploy-pages)'];
  const [name, job] = deploying;
  const problems: string[] = [];
  if (!(typeof job.needs === 'string' ? [job.needs] : (job.needs ?? [])).includes(building))
    problems.push(`job ${name} does not wait for the matrix (needs: ${building})`);
  if (job.permissions?.pages !== 'write' || job.permissions?.['id-token'] !== 'write')
    problems.push(`job ${name} lacks pages: write and id-token: write`);
  return problems;
}

/** Problems of the matrix workflow (and of the action it uses) against what it promises; [] = fine. */
function matrixWorkflowProblems(text: string, actionText = readFileSync(ACTION, 'utf8')): string[] {
  let wf: Workflow & { jobs?: Record<string, Jobs[number][1]> };
  let action: Promises;
  try {
    wf = parse(text);
    action = actionPromises(parse(actionText));
  } catch (err) {
    return [`not YAML: ${(err as Error).message}`];
  }
  const jobs: Jobs = Object.entries(wf.jobs ?? {});
  const problems = [...action.problems, ...jobProblems(jobs, action)];
  const schedule = (wf.on?.schedule as { cron?: string }[] | undefined) ?? [];
  if (!schedule.some((s) => typeof s.cron === 'string' && s.cron.trim().split(/\s+/).length === 5))
    problems.push('no nightly schedule (on.schedule[].cron)');
  if (wf.permissions?.contents !== 'read' || Object.keys(wf.permissions ?? {}).length !== 1)
    problems.push('the workflow permissions are not reduced to contents: read');
  if (/(echo|printf)[^\n]*\$\{\{\s*secrets\./.test(text)) problems.push('a secret is printed');
  const verifying = jobs.find(([, j]) => (j.steps ?? []).some(byMode('conformance')));
  if (!verifying) return [...problems, 'no job verifies implementations (the action in mode conformance)'];
  problems.push(...verifyProblems(verifying, action));
  const building = jobs.find(([, j]) => (j.steps ?? []).some(byMode('matrix')));
  if (!building) return [...problems, 'no job builds the matrix (the action in mode matrix)'];
  return [...problems, ...buildProblems(building, verifying[0], action), ...publishProblems(jobs, building[0])];
}

test('the matrix workflow verifies several named implementations and publishes their matrix', () => {
  expect(matrixWorkflowProblems(readFileSync(MATRIX_WORKFLOW, 'utf8'))).toEqual([]);
  // The action does what the matrix job needs of it: mode matrix imports the reports, then builds the site.
  const runScript = readFileSync(join(REPO_ROOT, 'action', 'run.sh'), 'utf8');
  expect(runScript).toMatch(/^matrix\)$/m);
  expect(runScript).toContain('wfcheck.mjs" history import "$file"');
  expect(runScript).toContain('argv=(matrix --out "$INPUT_REPORT_DIR")');
});

test('the structural check of the matrix workflow rejects broken ones', () => {
  const good = readFileSync(MATRIX_WORKFLOW, 'utf8');
  type MatrixWorkflow = Workflow & {
    jobs: Record<string, Job & { permissions?: Record<string, string>; if?: string }>;
  };
  const edit = (change: (wf: MatrixWorkflow) => void) => {
    const wf = parse(good) as MatrixWorkflow;
    change(wf);
    return stringify(wf);
  };
  const local = (wf: MatrixWorkflow, mode: string) =>
    Object.values(wf.jobs)
      .flatMap((j) => j.steps ?? [])
      .find((s) => isLocalAction(s) && String(s.with?.mode ?? 'conformance') === mode)!;
  const broken: [string, string, RegExp][] = [
    [
      'one implementation',
      edit((wf) => (wf.jobs.verify.strategy!.matrix!.implementation = ['reference'])),
      /fewer than two/,
    ],
    ['runs not named', edit((wf) => delete local(wf, 'conformance').with!.name), /does not name each run/],
    ['no matrix', edit((wf) => (local(wf, 'matrix').with!.mode = 'merge')), /no job builds the matrix/],
    ['matrix skipped on a failure', edit((wf) => delete wf.jobs.matrix.if), /skipped when an implementation fails/],
    [
      'reports not given',
      edit((wf) => (local(wf, 'matrix').with!.reports = 'elsewhere/*')),
      /does not give the downloaded reports/,
    ],
    [
      'site not published',
      edit((wf) => (wf.jobs.matrix.steps = wf.jobs.matrix.steps!.filter((s) => !/upload-pages/.test(s.uses ?? '')))),
      /does not hand the site to upload-pages-artifact/,
    ],
    ['no deployment', edit((wf) => delete (wf.jobs as Record<string, unknown>).publish), /no job deploys the site/],
    [
      'Pages rights for every job',
      edit((wf) => (wf.permissions = { contents: 'read', pages: 'write', 'id-token': 'write' })),
      /permissions are not reduced to contents: read/,
    ],
    ['no Pages rights', edit((wf) => delete wf.jobs.publish.permissions), /lacks pages: write and id-token: write/],
    ['unpinned', good.replace('actions/deploy-pages@v4', 'actions/deploy-pages@main'), /not pinned to a release/],
    [
      'unknown input',
      edit((wf) => (local(wf, 'matrix').with!.report_files = 'x')),
      /the action has no input "report_files"/,
    ],
  ];
  expect(matrixWorkflowProblems(edit(() => {}))).toEqual([]);
  for (const [what, text, expected] of broken) {
    expect(text === good, `${what}: the change did nothing`).toBe(false);
    expect(matrixWorkflowProblems(text).join('\n'), what).toMatch(expected);
  }
});

test('actionlint accepts the matrix workflow and rejects a broken one', () => {
  test.skip(!ACTIONLINT, `actionlint is not installed (${ACTIONLINT_INSTALL})`);
  const lint = (text: string) => {
    try {
      execFileSync(ACTIONLINT!, ['-no-color', '-stdin-filename', '.github/workflows/matrix.yml', '-'], {
        encoding: 'utf8',
        cwd: REPO_ROOT,
        input: text,
        stdio: 'pipe',
      });
      return { code: 0, out: '' };
    } catch (err) {
      const e = err as { status?: number; stdout?: string; stderr?: string };
      return { code: e.status ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  };
  const good = readFileSync(MATRIX_WORKFLOW, 'utf8');
  expect(lint(good)).toEqual({ code: 0, out: '' });
  expect(good).toMatch(/ {10}reports: /);
  const bad = lint(good.replace(/ {10}reports: /, '          report-files: '));
  expect(bad.code).not.toBe(0);
  expect(bad.out).toMatch(/input "report-files" is not defined in action/);
});
