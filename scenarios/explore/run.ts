/**
 * One generative run as a command does it: resolve the target (BASE_URL + API_KEY, or the reference
 * target booted hermetically), explore it, write the report under the output folder, and say what was
 * found. The exit code is the report's: 0 clean, 1 findings, 2 incomplete.
 */
import { relative } from 'node:path';
import { OPERATION_IDS, operationInfo, type OperationId } from '../../contracts/check.ts';
import type { ExploreSettings } from '../../foundation/environment/config.ts';
import { SettingError } from '../../foundation/environment/rules.ts';
import { describeTarget, resolveTarget } from '../../foundation/environment/target.ts';
import { explore } from './explore.ts';
import { writeExploreReport, type ExploreReport } from './report.ts';

export interface ExploreLog {
  info(line: string): void;
  error(line: string): void;
}

/** Operation ids (or their clause prefixes, e.g. SEARCH) named by --only; an unknown name is refused. */
export function operationsNamed(names: readonly string[]): OperationId[] {
  return names.map((name) => {
    const found = OPERATION_IDS.find(
      (op) => op.toLowerCase() === name.toLowerCase() || operationInfo(op).prefix === name.toUpperCase(),
    );
    if (!found) throw new SettingError(`--only: unknown operation "${name}"; known: ${OPERATION_IDS.join(', ')}`);
    return found;
  });
}

function summary(r: ExploreReport): string[] {
  const lines = r.findings.map(
    (f) =>
      `  ${f.level === 'must' ? 'FINDING' : 'warning'} [${f.clause}] ${f.operation}: ${f.message} ` +
      `(fingerprint ${f.fingerprint}; minimal ${JSON.stringify(f.minimalInput).slice(0, 160)})`,
  );
  const fp = r.footprint;
  lines.push(
    `  footprint: ${fp.executionsStarted} execution(s) started, ${fp.canvasesCreated} canvas(es) created, ` +
      `${fp.canvasOverwrites} overwrite(s), ${fp.filesUploaded} file(s) uploaded, ` +
      `${fp.requests.explore + fp.requests.setup + fp.requests.cleanup} request(s)`,
  );
  for (const i of r.incomplete) lines.push(`  incomplete: ${i}`);
  return lines;
}

export async function runExplore(settings: ExploreSettings, log: ExploreLog): Promise<number> {
  const operations = operationsNamed(settings.only);
  const target = await resolveTarget(settings.target);
  try {
    log.info(describeTarget(target));
    log.info(
      `seed ${settings.seed}${settings.seedGiven ? '' : ' (fresh; --seed replays it)'}, budget ${settings.budgetS} s`,
    );
    const { report, bodies } = await explore(
      { baseUrl: target.baseUrl, apiKey: target.apiKey, apiKeyB: target.apiKeyB, kind: target.kind, how: target.how },
      {
        seed: settings.seed,
        seedGiven: settings.seedGiven,
        budgetS: settings.budgetS,
        requestsPerOperation: settings.requestsPerOperation,
        operations,
        maxExecutions: settings.maxExecutions,
        maxCanvasesCreated: settings.maxCanvasesCreated,
        allowOverwrite: settings.allowOverwrite,
        overwriteCanvasId: settings.overwriteCanvasId,
        canvasIds: settings.canvasIds,
        requestTimeoutMs: settings.requestTimeoutMs,
        log: log.info,
      },
    );
    const paths = writeExploreReport(report, settings.outDir, bodies);
    const must = report.findings.filter((f) => f.level === 'must').length;
    log.info(
      `${must} finding(s), ${report.findings.length - must} warning(s) in ${(report.wallMs / 1000).toFixed(1)} s; ` +
        `exit ${report.exitCode}`,
    );
    for (const line of summary(report)) log.info(line);
    log.info(`report: ${relative(process.cwd(), paths.markdown)} and ${relative(process.cwd(), paths.json)}`);
    return report.exitCode;
  } finally {
    await target.stop();
  }
}
