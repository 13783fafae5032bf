/**
 * matrix.json, beside index.html: the grid as data for whoever builds on it (a dashboard, a check in
 * CI): the implementations with their latest run, score and runs, the interop line, and per requirement
 * each implementation's verdict, the finding's title, the link to its evidence and its history (one
 * letter per run, oldest first; `letters` says which verdict each stands for).
 */
import { distinctAnchor as anchor } from '../core/report/escape.ts';
import { LETTER, type Column, type Matrix } from './model.ts';

export const MATRIX_FORMAT = 'wfcheck-matrix';

const changesOf = (c: Column) => ({
  previousRunId: c.changes.previous?.runId ?? null,
  newlyFailing: c.changes.newlyFailing.map((x) => x.id),
  newlyPassing: c.changes.newlyPassing.map((x) => x.id),
  newlyBlockedOrNotRun: c.changes.newlyBlockedOrNotRun.map((x) => x.id),
  waiversNowPassing: c.changes.waiversNowPassing,
  newFindings: c.changes.newFindings.map((f) => f.behaviour),
  goneFindings: c.changes.goneFindings.map((f) => f.behaviour),
});

export function matrixJson(m: Matrix) {
  return {
    format: MATRIX_FORMAT,
    version: 1,
    generatedAt: m.generatedAt,
    harnessVersion: m.harnessVersion,
    letters: Object.fromEntries(Object.entries(LETTER).map(([verdict, letter]) => [letter, verdict])),
    interop: m.interop,
    implementations: m.columns.map((c) => ({
      key: c.key,
      label: c.label,
      name: c.name,
      page: `impl/${c.slug}.html`,
      latest: c.latest,
      runs: c.runs,
      changes: changesOf(c),
      capacity: c.capacity,
    })),
    sections: m.groups.map((g) => g.section),
    requirements: m.groups.flatMap((g) =>
      g.rows.map((r) => ({
        id: r.id,
        level: r.level,
        section: r.section.id,
        text: r.text,
        security: r.security,
        differs: r.differs,
        failing: r.failing,
        cells: Object.fromEntries(
          m.columns.map((c, i) => {
            const cell = r.cells[i]!;
            return [
              c.key,
              {
                verdict: cell.verdict,
                ...(cell.title ? { title: cell.title } : {}),
                ...(cell.findingId ? { finding: cell.findingId } : {}),
                href: `impl/${c.slug}.html#r-${anchor(r.id)}`,
                history: cell.history.map((v) => LETTER[v] ?? '?').join(''),
              },
            ];
          }),
        ),
      })),
    ),
  };
}
