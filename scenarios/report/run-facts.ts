/**
 * The conformance report's sections about the run itself: how it ran (target, seed and replay, times,
 * counts, footprint, discovery), the waivers, the transport faults, the failed tests and the evidence
 * that could not be read.
 */
import { commandLine } from '../../core/settings/invocation.ts';
import {
  type Block,
  code,
  fields,
  heading,
  type Inline,
  joined,
  listOf,
  paragraph,
  section,
} from '../../core/report/document.ts';
import type { ConformanceReport } from '../../core/findings/build-report.ts';
import { footprintText, seconds, targetText, testsText, VERDICT_ORDER } from './common.ts';
import { verdictMark } from '../../core/report/verdict-marks.ts';

/** The command that replays the run. */
export const replayCommand = (m: ConformanceReport['meta']) =>
  m.command ?? commandLine('conformance', ['--seed', m.seed]);

function runSection(r: ConformanceReport): Block {
  const s = r.summary;
  const m = r.meta;
  const byVerdict = joined(
    VERDICT_ORDER.map((v): Inline[] => [verdictMark(v), ` ${s.byVerdict[v]}`]),
    ', ',
  );
  return section('run', [
    heading(2, 'The run'),
    fields([
      ['Target', targetText(m)],
      ['Seed', [`${m.seed} — replay with `, { code: replayCommand(m) }]],
      [
        'Started',
        `${m.startedAt}; wall time ${seconds(m.wallTimeMs)}${m.bootMs !== undefined ? ` (target boot ${seconds(m.bootMs)})` : ''}`,
      ],
      ['Strict (warnings fail)', m.strict ? 'yes' : 'no'],
      ['Requirements exercised', [`${s.exercised} of ${s.catalogue} in the catalogue — `, ...byVerdict]],
      ['Tests', `${testsText(s)}; ${s.exchanges} HTTP exchanges, ${s.faults} transport faults`],
      m.incomplete ? ['Incomplete', m.incomplete] : undefined,
      r.footprint ? ['Left on the target', footprintText(r.footprint)] : undefined,
      r.discovery ? ['Discovery', r.discovery] : undefined,
    ]),
  ]);
}

const ids = (xs: readonly { id: string }[]): Inline[] =>
  xs.length
    ? joined(
        xs.map((x) => ({ code: x.id })),
        ', ',
      )
    : ['none'];

function waiversSection(r: ConformanceReport): Block {
  const w = r.waivers;
  const waived = w.waivedFailures.length
    ? joined(
        w.waivedFailures.map((x): Inline[] => [{ code: x.id }, ` (${x.verdict}; ${x.reason})`]),
        '; ',
      )
    : ['none'];
  const expired = w.expired.length
    ? joined(
        w.expired.map((x): Inline[] => [{ code: x.id }, ` (expired ${x.expires})`]),
        ', ',
      )
    : ['none'];
  return section('waivers', [
    heading(2, 'Waivers'),
    fields([
      ['Source', w.source ?? '(none given)'],
      ['Waived clauses', waived],
      ['Waivers that now pass (remove them)', ids(w.nowPassing)],
      ['Waivers not exercised in this run', ids(w.notExercised)],
      ['Expired waivers (no longer applied)', expired],
      w.problems.length ? ['Problems in the waiver file', w.problems.join('; ')] : undefined,
    ]),
  ]);
}

function faultsSection(r: ConformanceReport): Block[] {
  if (!r.faults.length) return [];
  return [
    section('faults', [
      heading(2, `Transport faults (${r.faults.length})`),
      listOf(
        r.faults.map((f): Inline[] => [
          ...(f.test ? [{ em: f.test }, ' — '] : []),
          `${f.kind}: ${f.message} — `,
          { code: f.request },
        ]),
      ),
    ]),
  ];
}

function failedTestsSection(r: ConformanceReport): Block[] {
  if (!r.failedTests.length) return [];
  return [
    section('failed-tests', [
      heading(2, `Failed tests (${r.failedTests.length})`),
      listOf(r.failedTests.map((t) => ({ text: `${t.test} (${t.status})`, blocks: t.error ? [code(t.error)] : [] }))),
    ]),
  ];
}

function housekeeping(r: ConformanceReport): Block[] {
  return r.unreadableEvidenceLines
    ? [paragraph(`Unreadable evidence lines (torn writes): ${r.unreadableEvidenceLines}`, 'dim')]
    : [];
}

/** The sections about the run, in the order a reader needs them. */
export function runSections(r: ConformanceReport): Block[] {
  return [runSection(r), waiversSection(r), ...faultsSection(r), ...failedTestsSection(r), ...housekeeping(r)];
}
