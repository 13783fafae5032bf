/**
 * matrix.json, beside index.html: the grid as data for whoever builds on it (a dashboard, a check in
 * CI): the implementations with their latest run, score and runs, the interop line, and per requirement
 * each implementation's verdict, the finding's title, the link to its evidence and its history (one
 * letter per run, oldest first; `letters` says which verdict each stands for); and the open points: each
 * point the specification leaves open with its values, the implementations holding each, and for a split
 * point the answers a client must tolerate.
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

/** The open points as data: each point's values with the implementations holding them, and what to tolerate. */
const openPointsJson = (m: Matrix) => ({
  split: m.openPoints.rows.filter((r) => r.split).length,
  page: 'open-points.html',
  points: m.openPoints.rows.map((r) => ({
    point: r.point,
    clause: r.clause,
    question: r.question,
    words: r.words,
    vocabulary: r.vocabulary,
    split: r.split,
    answered: r.answered,
    ...(r.split ? { tolerate: r.tolerate } : {}),
    values: r.values.map((v) => ({
      value: v.value,
      implementations: v.holders.map((h) => ({
        key: h.key,
        href: `impl/${h.slug}.html#p-${anchor(r.point)}`,
        ...(h.also.length ? { also: h.also } : {}),
      })),
    })),
    ...(r.silent.length ? { notAnswered: r.silent } : {}),
    changes: r.changes.map((c) => ({
      key: c.key,
      from: c.from,
      to: c.to,
      beforeRunId: c.before.runId,
      afterRunId: c.after.runId,
      beforeVersion: c.before.version,
      afterVersion: c.after.version,
      sameVersion: c.sameVersion,
    })),
  })),
  unanswered: m.openPoints.unanswered.map((u) => u.point),
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
      standsApart: m.openPoints.standing[m.columns.indexOf(c)]?.map((s) => ({
        point: s.point,
        values: s.values,
        kind: s.kind,
        holders: s.holders,
        answered: s.answered,
      })),
    })),
    openPoints: openPointsJson(m),
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
