/**
 * Coverage on accounts shaped unlike the reference seed, as a user's account is: the clauses that need a
 * shape the account lacks are judged on what is there, or on a workflow the harness makes through
 * generate (counted in the footprint), not left "not run".
 *
 * - Every workflow has a required variable (an ordinary business account): a body that is not a JSON
 *   object is invalid for any workflow (RUN-400-INVALID-BODY), and a run without a body is judged on a
 *   workflow made through generate (RUN-WITHOUT-BODY).
 * - Only some workflows write files, and none of those with a file variable: the trial, which reads the
 *   output of each execution it sees end, finds one that writes them, and the file clauses are judged on it.
 *
 * Each account is the reference target's own seed, reshaped, run as a foreign target is run.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DEFAULT_SEED_FILE } from '../fixtures/reference/config.ts';
import { seedFrom, type SeedFile, type SeedWorkflow } from '../fixtures/reference/seed.ts';
import { startTarget } from '../fixtures/reference/server.ts';
import type { TaskBehaviour } from '../fixtures/reference/model.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir } from './conformance-run.ts';

function reshaped(change: (w: SeedWorkflow) => SeedWorkflow): ReturnType<typeof seedFrom> {
  const file = JSON.parse(readFileSync(DEFAULT_SEED_FILE, 'utf8')) as SeedFile;
  for (const t of file.tenants) t.workflows = t.workflows.map(change);
  return seedFrom(file, 'reshaped reference seed');
}

/** Every workflow needs an input: its first variable made required, or a required one added. */
const everyWorkflowNeedsInput = () =>
  reshaped((w) => {
    const variables = w.plan.variables ?? [];
    const withRequired = variables.length
      ? variables.map((v, i) => (i === 0 ? { ...v, required: true } : v))
      : [{ name: 'team', variableType: 'string' as const, required: true }];
    return { ...w, plan: { ...w.plan, variables: withRequired } };
  });

/** Files only from the weekly invoices digest: every other workflow's nodes produce none. */
const onlyOneWritesFiles = () =>
  reshaped((w) => {
    const behaviour: Record<string, TaskBehaviour> = Object.fromEntries(
      Object.entries(w.behaviour ?? {}).map(([task, b]) => {
        const { produces: _, ...rest } = b;
        return [task, rest];
      }),
    );
    if (w.canvasId === 'c_acme_digest_invoices')
      behaviour[w.plan.tasks[w.plan.tasks.length - 1]!.id] = {
        produces: [{ name: 'invoices.csv', type: 'text/csv', content: 'number,amount\nINV-1,120.00\n' }],
      };
    return { ...w, behaviour };
  });

const CLAUSES = [
  'RUN-400-INVALID-BODY',
  'RUN-WITHOUT-BODY',
  'OUTPUT-FILE-URL-SERVES',
  'OUTPUT-FILE-SIZE-UNIT',
  'OUTPUT-FILE-TYPE-VALUES',
];

const verdictsOf = (r: ConformanceReport, ids: readonly string[]) =>
  Object.fromEntries(ids.map((id) => [id, r.requirements.find((q) => q.id === id)?.verdict]));

for (const [name, seed, made] of [
  ['every workflow has a required variable', everyWorkflowNeedsInput, true],
  ['only one workflow writes files, none with a file variable', onlyOneWritesFiles, false],
] as const) {
  test(`an account where ${name}: the clauses that need a shape it lacks are judged`, {
    tag: '@conformance-run',
  }, async () => {
    test.setTimeout(180_000);
    const target = await startTarget({ seed: seed() });
    const [a, b] = target.tenants;
    try {
      const run = await runConformance({
        outDir: scratchOutDir(`account-shape-${made ? 'required' : 'files'}`),
        baseUrl: target.baseUrl,
        apiKey: a!.apiKey,
        apiKeyB: b?.apiKey,
        seed: 20260101,
        timeoutS: 120,
        args: ['--grep', CLAUSES.map((c) => `\\[${c}\\]`).join('|')],
        env: { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_CACHE_DIR: 'off' },
      });
      const report = run.report;
      expect(report, run.output.slice(-3000)).toBeDefined();
      const verdicts = verdictsOf(report!, CLAUSES);
      const context = JSON.stringify({ verdicts, discovery: run.output.match(/discovery[^\n]*/g) }, null, 1);
      // Judged: a verdict of the target, whichever; never "not run" for the account's shape.
      for (const id of CLAUSES) expect(['pass', 'observed'], `${id}\n${context}`).toContain(verdicts[id]);
      expect(report!.findings, context).toEqual([]);
      if (made) expect(report!.footprint.canvasesCreated, context).toBeGreaterThanOrEqual(1);
      else expect(report!.footprint.canvasesCreated, context).toBe(0);
    } finally {
      await target.close();
    }
  });
}
