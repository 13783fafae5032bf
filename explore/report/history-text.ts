/**
 * What `wfcheck history --explore` prints: the recorded generative runs of a target, one run's findings
 * (each new or seen before) with those of the previous run now gone, and one fingerprint across runs.
 * Terminal text, through the report kit's console renderer.
 */
import { type Block, toInlines, listOf, paragraph } from '../../core/report/document.ts';
import { renderConsole } from '../../core/report/render/console.ts';
import type { ExploreHistory } from '../../core/history-store/explore.ts';
import type { ExploreRunRow } from '../../core/history-store/queries.ts';
import type { ExploreFindingOutcome } from '../../core/history-store/records.ts';
import { seenText } from './explore-report.ts';
import { goneItems } from './report-view.ts';

/** Characters of a minimal input in a timeline. */
const TIMELINE_INPUT = 160;

const exploreRunName = (r: ExploreRunRow) =>
  `run #${r.id} (${r.startedAt}, seed ${r.seed}, harness ${r.harnessVersion})`;

/** One line per recorded generative run. */
export function exploreRunsText(runs: readonly ExploreRunRow[]): string {
  if (runs.length === 0) return 'no explore run recorded for this target';
  return renderConsole(
    runs.map((r) =>
      paragraph(
        `#${r.id}  ${r.startedAt}  seed ${r.seed}  harness ${r.harnessVersion}  exit ${r.exitCode}  ${r.wallMs} ms  ` +
          `${r.requests} request(s)  ${r.mustFindings} finding(s), ${r.findings - r.mustFindings} warning(s)` +
          (r.incomplete.length ? `  incomplete: ${r.incomplete.join('; ')}` : ''),
      ),
    ),
  );
}

/** A recorded generative run: its findings, each new or seen before, and those of the previous run now gone. */
export function exploreChangeText(
  run: ExploreRunRow,
  findings: readonly ExploreFindingOutcome[],
  h: ExploreHistory,
): string {
  const blocks: Block[] = [
    paragraph(
      `explore ${exploreRunName(run)}: exit ${run.exitCode}, ${run.wallMs} ms, ${run.requests} request(s), budget ${run.budgetS} s`,
    ),
    paragraph(
      h.previous
        ? `compared with run #${h.previous.runId} (${h.previous.startedAt}, seed ${h.previous.seed})`
        : 'no earlier explore run of this target',
    ),
    paragraph(`Findings:${findings.length ? '' : ' none'}`),
    listOf(
      findings.map((f) => [
        `- ${f.level === 'must' ? '' : '[WARN] '}`,
        { mark: f.clause },
        ` ${f.operation}: ${f.message} (fingerprint ${f.fingerprint}) — ${seenText(h.seen[f.fingerprint])}`,
      ]),
    ),
  ];
  if (h.previous) {
    const gone = goneItems(h.gone);
    blocks.push(
      paragraph(`Gone since the previous run:${gone.length ? '' : ' none'}`),
      listOf(gone.map((g) => ['- ', ...toInlines(g)])),
    );
  }
  return renderConsole(blocks);
}

/** One fingerprint in each of the last generative runs of a target: found or not. */
export function fingerprintTimelineText(
  fingerprint: string,
  target: string,
  rows: readonly { run: ExploreRunRow; finding?: ExploreFindingOutcome }[],
): string {
  const operation = rows.find((r) => r.finding)?.finding?.operation;
  const missing = (run: ExploreRunRow) =>
    operation === undefined || run.operations.includes(operation)
      ? 'not found'
      : 'not looked for (its operation was not explored)';
  return renderConsole([
    paragraph(`${fingerprint} over the last ${rows.length} explore run(s) of target ${target}:`),
    listOf(
      rows.map(
        ({ run, finding }) =>
          `#${run.id}  ${run.startedAt}  seed ${run.seed}  ${
            finding
              ? `found: [${finding.clause}] ${finding.operation}, minimal ${JSON.stringify(finding.minimalInput).slice(0, TIMELINE_INPUT)}`
              : missing(run)
          }`,
      ),
    ),
  ]);
}
