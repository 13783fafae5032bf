/**
 * Step of the GitHub Action (action.yml) after the run: the verdict as step outputs (`verdict`,
 * `failures`, `report`) and in the job summary, findings first, and as one annotation. For mode matrix,
 * the implementations with their scores and changes, the interop line, and as failures the implementations
 * whose latest run missed a must clause.
 *
 * The verdict follows the harness's exit code (0 pass, 1 fail, anything else incomplete); the number of
 * failures is read from the report the run wrote: failing findings of a conformance verdict, breached
 * gates of a load run, must-level deviations of a generative run (which also says how many of its
 * findings are new to the run history). The job summary of a conformance or generative run is the one
 * the harness wrote (summary.md, with its report kit); this step names the verdict it reports in its
 * title, adds the artifact and, when no report was written, says so. Reports are redacted by the harness
 * before they are written, so nothing here can hold a key. Plain JavaScript with no dependency: it runs
 * whether or not the harness could be installed.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Characters of each line of a load run's text summary. */
const LINE_CHARS = 600;
const LOAD_SUMMARY_LINES = 120;

const VERDICTS = { 0: 'pass', 1: 'fail' };

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const clip = (line) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line);

/**
 * The job summary the harness wrote (summary.md), its title saying the verdict the action reports (from
 * the exit code): the harness's own words when they agree, both when they do not (a run killed after
 * it wrote its report).
 */
function harnessSummary(path, exitCode, artifactLine) {
  const [title, ...rest] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const word = (VERDICTS[exitCode] ?? 'incomplete').toUpperCase();
  const m = /^## (.+?): (.*)$/.exec(title);
  const heading = !m || m[2].startsWith(word) ? title : `## ${m[1]}: ${word} (exit ${exitCode ?? 'unknown'}) — ${m[2]}`;
  return [heading, ...rest, ...(artifactLine ? ['', artifactLine] : [])].join('\n');
}

function conformanceSummary({ reportDir, exitCode, shard, artifact }) {
  const path = join(reportDir, 'summary.md');
  if (!existsSync(path))
    return [
      `## wfcheck conformance${shard ? ` (shard ${shard})` : ''}: INCOMPLETE`,
      '',
      `No report was written (exit ${exitCode ?? 'unknown'}): the run could not start; see the step's log.`,
    ].join('\n');
  const reports = artifact
    ? `Reports (report.html, report.md, report.json, JUnit, Playwright HTML): artifact \`${artifact}\`.`
    : '';
  return harnessSummary(path, exitCode, reports);
}

function loadSummary({ reportDir, exitCode, profile, artifact }) {
  const summary = readJson(join(reportDir, 'report.json'));
  // The profile the run ran: given, or the harness's default (the report names it).
  const what = `wfcheck load (${summary?.meta?.profile ?? (profile || 'default profile')})`;
  if (!summary)
    return [
      `## ${what}: INCOMPLETE`,
      '',
      `No load report was written (exit ${exitCode ?? 'unknown'}); see the step's log.`,
    ].join('\n');
  const breached = (summary.thresholds ?? []).filter((t) => !t.ok);
  const verdict = VERDICTS[exitCode] ?? 'incomplete';
  const headline =
    verdict === 'pass'
      ? 'PASS — every gate met'
      : `${verdict.toUpperCase()} — ${breached.length} gate(s) breached${exitCode === 1 && breached.length === 0 ? ' (a regression against the baseline)' : ''}`;
  const out = [`## ${what}: ${headline}`, ''];
  out.push(`### Breached gates (${breached.length})`, '');
  if (breached.length) {
    out.push('| metric | threshold | actual |', '|---|---|---|');
    for (const t of breached) out.push(`| \`${t.metric}\` | \`${t.expression}\` | ${t.actual ?? '–'} |`);
  } else out.push('None.');
  out.push('');
  const txt = join(reportDir, 'report.txt');
  if (existsSync(txt)) {
    const lines = readFileSync(txt, 'utf8').trimEnd().split('\n');
    out.push('### The run', '', '```', ...lines.slice(0, LOAD_SUMMARY_LINES).map(clip), '```', '');
  }
  if (artifact) out.push(`Reports (report.txt, report.json, JUnit, dashboard, trend.html): artifact \`${artifact}\`.`);
  return out.join('\n');
}

/** The line that says how to replay a generative run (budget added when it is not the default). */
function seedLine(seed, budgetS) {
  if (seed === undefined || seed === '') return "explore seed unknown: the run wrote no report; see the step's log";
  const budget = budgetS !== undefined && Number(budgetS) !== 60 ? ` --budget-s ${budgetS}` : '';
  return `explore seed ${seed}: replay with wfcheck explore --seed ${seed}${budget}`;
}

/**
 * Must-level deviations of a generative run (its findings grouped across operations: what a person counts),
 * and its must-level findings the run history had not seen (or could not say).
 */
function exploreCounts(report) {
  const must = (report?.findings ?? []).filter((f) => f.level === 'must');
  return {
    deviations: report?.deviations?.filter((d) => d.level === 'must').length ?? must.length,
    fresh: must.filter((f) => f.seen?.status !== 'seen-before').length,
  };
}

function exploreSummary({ reportDir, exitCode, artifact, seed }) {
  const path = join(reportDir, 'summary.md');
  if (!existsSync(join(reportDir, 'report.json')) || !existsSync(path))
    return [
      '## wfcheck explore: INCOMPLETE',
      '',
      seedLine(seed),
      '',
      `No report was written (exit ${exitCode ?? 'unknown'}): the run could not start; see the step's log.`,
    ].join('\n');
  const reports = artifact ? `Reports (report.md, report.json, reproducer bodies): artifact \`${artifact}\`.` : '';
  return harnessSummary(path, exitCode, reports);
}

/** Implementations of a matrix whose latest run did not meet every must clause it exercised. */
const shortOfMusts = (matrix) =>
  (matrix?.implementations ?? []).filter((i) => i.latest.score.met < i.latest.score.exercised);

/** A table cell's text: one line, no pipe to break the table. */
const cellText = (s) => String(s ?? '').replace(/[|\r\n]+/g, ' ');

function matrixSummary({ reportDir, exitCode, artifact }) {
  const matrix = readJson(join(reportDir, 'matrix.json'));
  if (!matrix)
    return [
      '## wfcheck matrix: INCOMPLETE',
      '',
      `No matrix was built (exit ${exitCode ?? 'unknown'}): see the step's log (no history yet, or none usable).`,
    ].join('\n');
  const i = matrix.interop;
  const word = (VERDICTS[exitCode] ?? 'incomplete').toUpperCase();
  const out = [
    `## wfcheck matrix: ${word === 'PASS' ? '' : `${word} (exit ${exitCode}) — `}${matrix.implementations.length} implementation(s) × ${matrix.requirements.length} requirements`,
    '',
    `Interop: **${i.metByAll.length}** of ${i.total} must and should requirements met by every implementation (${i.mustMetByAll} of ${i.mustTotal} musts).`,
    '',
    '| implementation | version | latest run | seed | musts met / exercised | since its previous run |',
    '|---|---|---|---|---|---|',
  ];
  for (const impl of matrix.implementations) {
    const c = impl.changes;
    const change =
      c.previousRunId === null
        ? 'first run'
        : [
            c.newlyFailing.length
              ? `${c.newlyFailing.length} newly failing (${c.newlyFailing.slice(0, 5).join(', ')})`
              : '',
            c.newlyPassing.length ? `${c.newlyPassing.length} newly passing` : '',
            c.newFindings.length ? `${c.newFindings.length} new finding(s)` : '',
            c.goneFindings.length ? `${c.goneFindings.length} finding(s) gone` : '',
          ]
            .filter(Boolean)
            .join(', ') || 'no change';
    const s = impl.latest.score;
    out.push(
      `| ${cellText(impl.label)} | ${cellText(impl.latest.version ?? '–')} | ${cellText(impl.latest.startedAt)} | ${impl.latest.seed} | ${s.met}/${s.exercised} | ${cellText(change)} |`,
    );
  }
  out.push('');
  if (i.metByNone.length) out.push(`Met by no implementation (${i.metByNone.length}): ${i.metByNone.join(', ')}.`, '');
  out.push(...openPointsSummary(matrix));
  if (artifact) out.push(`The site (index.html, open-points.html, matrix.json, impl/): artifact \`${artifact}\`.`);
  return out.join('\n');
}

/** The rows of the open-points table the summary shows at most (the whole table is in the site). */
const MAX_SPLIT_ROWS = 25;

/** Where the implementations split on the points the specification leaves open: matrix.json's openPoints. */
function openPointsSummary(matrix) {
  const points = matrix.openPoints?.points;
  if (!points) return [];
  const split = points.filter((p) => p.split);
  const label = new Map(matrix.implementations.map((impl) => [impl.key, impl.label]));
  const out = [`### Where implementations split: ${split.length} of ${points.length} open point(s) answered`, ''];
  if (!split.length) return [...out, 'Every implementation that answered a point answered it alike.', ''];
  out.push('| point | values (implementations) | a client must tolerate |', '|---|---|---|');
  for (const p of split.slice(0, MAX_SPLIT_ROWS)) {
    const values = p.values
      .map(
        (v) =>
          `\`${cellText(v.value)}\`: ${v.implementations.map((x) => cellText(label.get(x.key) ?? x.key)).join(', ')}`,
      )
      .join(' · ');
    out.push(`| ${cellText(p.point)} | ${values} | ${p.tolerate.map(cellText).join(' or ')} |`);
  }
  if (split.length > MAX_SPLIT_ROWS) out.push('', `…and ${split.length - MAX_SPLIT_ROWS} more: see open-points.html.`);
  return [...out, ''];
}

/** Number of failures a report states: failing findings, or breached load gates. */
function failuresOf(mode, reportPath) {
  const report = readJson(reportPath);
  if (!report) return 0;
  if (mode === 'load') return (report.thresholds ?? []).filter((t) => !t.ok).length;
  if (mode === 'explore') return exploreCounts(report).deviations;
  if (mode === 'matrix') return shortOfMusts(report).length;
  return report.summary?.findings?.failures ?? 0;
}

/** A workflow command's message: the runner reads one line, with %, CR and LF escaped. */
const escapeCommand = (s) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

function main() {
  const env = process.env;
  const mode = env.INPUT_MODE;
  const reportDir = env.INPUT_REPORT_DIR;
  const reportPath = env.INPUT_REPORT;
  const exitCode = /^\d+$/.test(env.INPUT_EXIT_CODE ?? '') ? Number(env.INPUT_EXIT_CODE) : undefined;
  const verdict = VERDICTS[exitCode] ?? 'incomplete';
  const failures = failuresOf(mode, reportPath);
  const args = {
    reportDir,
    exitCode,
    shard: env.INPUT_SHARD,
    profile: env.INPUT_PROFILE,
    artifact: env.INPUT_ARTIFACT,
  };
  const summary =
    mode === 'load'
      ? loadSummary(args)
      : mode === 'explore'
        ? exploreSummary({ ...args, seed: env.INPUT_SEED })
        : mode === 'matrix'
          ? matrixSummary(args)
          : conformanceSummary(args);
  const report = existsSync(reportPath) ? reportPath : '';
  // Generative runs only: the findings the history had not seen on this target (a policy may fail on these alone).
  const fresh = mode === 'explore' ? `new-findings=${exploreCounts(readJson(reportPath)).fresh}\n` : '';

  if (env.GITHUB_OUTPUT)
    appendFileSync(env.GITHUB_OUTPUT, `verdict=${verdict}\nfailures=${failures}\nreport=${report}\n${fresh}`);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${summary}\n\n`);
  // The title without Markdown's escapes: an annotation is plain text.
  const title = summary
    .split('\n')[0]
    .replace(/^## /, '')
    .replace(/\\([\\`*_[\]<>&|~$#])/g, '$1');
  const level = verdict === 'pass' ? 'notice' : 'error';
  console.log(`::${level} title=wfcheck::${escapeCommand(title)}`);
  console.log(`verdict=${verdict} failures=${failures} report=${report || '(none)'}`);
  if (mode === 'explore') {
    const r = readJson(reportPath);
    console.log(seedLine(r?.seed ?? env.INPUT_SEED, r?.budget?.seconds));
  }
}

main();
