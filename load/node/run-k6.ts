/**
 * Runs the k6 entry (load/k6/main.ts) as a child process: passes configuration
 * through env (written by k6-env.ts), streams its output with secrets redacted, collects contract
 * violation lines into the report folder, samples its memory, and writes the report k6 handed over in
 * every format (report-files.ts).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { redactSecrets, registerSecret } from '../../core/settings/redact.ts';
import { REPORT_HANDOVER_FILE, WIRE_MARKER, type RunReport } from '../k6/lib/run-report.ts';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import { readK6ScriptSettings } from '../settings.ts';
import { K6_SCRIPT_ENV, type K6ScriptValues } from '../../core/settings/rules.ts';
import { targetConnection } from '../../core/connection/connection.ts';
import type { ConnectionFacts } from '../../core/connection/connection-facts.ts';
import { loadConnection } from './connection-view.ts';
import { k6TlsFor, type K6Tls } from './k6-tls.ts';
import { k6RunnerEnv, k6ScriptEnv } from './k6-env.ts';
import { startNodeChecker } from './node-checker.ts';
import { writeLoadReport } from './report-files.ts';

export const LOAD_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const K6_ENTRY = join(LOAD_DIR, 'k6', 'main.ts');
const VIOLATION_MARKER = 'CONTRACT-VIOLATION ';

/** k6 exit codes the runner interprets (see k6's errext/exitcodes). */
export const K6_EXIT = { ok: 0, thresholdsFailed: 99, scriptException: 107, scriptAborted: 108 } as const;

export interface K6RunOptions {
  k6: string;
  baseUrl: string;
  apiKey: string;
  profile: string;
  seed: number;
  reportDir: string;
  dataFile: string;
  scenarios?: string;
  duration?: string;
  vusScale?: number;
  /** Share of responses checked against the contract (CONTRACT_CHECK_SAMPLE); default all. */
  contractSample?: number;
  /** Settings for the script (SLO_*, THINK_TIME_S, …), in place of the command environment's; K6_SCRIPT_ENV names only. */
  env?: K6ScriptValues;
  /** Write the web-dashboard HTML export to reportDir/dashboard.html. */
  dashboard?: boolean;
  /** Execution segment of a distributed run; label names the part in logs and report. */
  segment?: { segment: string; sequence: string; label: string };
  /** Write every metric sample as NDJSON (for merging distributed runs). */
  jsonOut?: string;
  /** Do not echo k6 output (tests, benchmarks); it is still written to reportDir/k6.log. */
  quiet?: boolean;
  /** Prefix for echoed lines (distributed runs). */
  prefix?: string;
  extraArgs?: string[];
  /**
   * Where the contract checks run: in k6's VUs (default), or `offload` — in this Node process, the
   * responses sent in batches to load/node/node-checker.ts: the generator then sends at nearly its bare
   * speed with every response still checked.
   */
  contractMode?: 'vu' | 'offload';
  /** Another k6 entry than the suite's (a capacity search: load/capacity/k6/main.ts). */
  entry?: string;
  /** Called with every (redacted) output line, e.g. to act once setup() is done. */
  onLine?: (line: string) => void;
  /** What the connection check saw of the way to the target, for the report's header. */
  connection?: ConnectionFacts;
}

export interface K6RunResult {
  exitCode: number;
  /** Highest resident memory of the k6 process, in KiB (Linux /proc; undefined elsewhere). */
  peakRssKb?: number;
  report?: RunReport;
  violationsFile: string;
  violationCount: number;
  /** The reason the script gave when it aborted the run (k6 exit 108), e.g. "target unreachable: …". */
  abortReason?: string;
  /** The first uncaught script error's message (k6 exit 107), e.g. a malformed env setting. */
  scriptError?: string;
  /** What k6 spoke to the target on its first answer (when this process discovered). */
  wire?: { proto: string; tls: string };
}

function readPeakRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = status.match(/VmHWM:\s+(\d+)\s+kB/);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export async function runK6(o: K6RunOptions): Promise<K6RunResult> {
  registerSecret(o.apiKey, 'API_KEY');
  mkdirSync(o.reportDir, { recursive: true });
  const violationsFile = join(o.reportDir, 'violations.ndjson');
  const logFile = join(o.reportDir, 'k6.log');
  const args = ['run', '--quiet', '--no-color'];
  if (o.segment)
    args.push('--execution-segment', o.segment.segment, '--execution-segment-sequence', o.segment.sequence);
  if (o.jsonOut) args.push('--out', `json=${o.jsonOut}`);
  // The way to the target of the command's settings: roots, --insecure and the client certificate.
  const tls = k6TlsFor(targetConnection());
  args.push(...tls.args);
  args.push(...(o.extraArgs ?? []), o.entry ?? K6_ENTRY);
  const checker = o.contractMode === 'offload' ? await startNodeChecker(violationsFile) : undefined;
  try {
    const env: Record<string, string> = {
      // The script's settings are k6ScriptEnv's alone to write: the inherited ones reach k6 through it.
      ...inheritedEnvironment({ without: K6_SCRIPT_ENV }),
      ...tls.env,
      ...k6RunnerEnv(o),
      ...k6ScriptEnv({
        ...o,
        segmentLabel: o.segment?.label,
        nodeCheckerUrl: checker?.url,
        passOn: { ...readK6ScriptSettings(), ...o.env },
      }),
    };
    const result = await runChild(o, args, env, { violationsFile, logFile }, tls);
    // Offload mode: the checker wrote the violating examples itself, not through k6's log.
    if (checker && existsSync(violationsFile))
      result.violationCount = readFileSync(violationsFile, 'utf8').split('\n').filter(Boolean).length;
    return result;
  } finally {
    tls.done();
    await checker?.close();
  }
}

async function runChild(
  o: K6RunOptions,
  args: string[],
  env: Record<string, string>,
  files: { violationsFile: string; logFile: string },
  tls: K6Tls,
): Promise<K6RunResult> {
  const { violationsFile, logFile } = files;
  const child = spawn(o.k6, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  tls.hand();
  let peakRssKb: number | undefined;
  const sampler = setInterval(() => {
    const kb = child.pid ? readPeakRss(child.pid) : undefined;
    if (kb !== undefined) peakRssKb = Math.max(peakRssKb ?? 0, kb);
  }, 200);
  let violationCount = 0;
  let abortReason: string | undefined;
  let scriptError: string | undefined;
  let wire: K6RunResult['wire'];
  const handleLine = (raw: string, toStderr: boolean) => {
    const line = redactSecrets(raw);
    appendFileSync(logFile, `${line}\n`);
    o.onLine?.(line);
    abortReason ??= abortReasonOf(line);
    scriptError ??= scriptErrorOf(line);
    wire ??= wireOf(line);
    const at = line.indexOf(VIOLATION_MARKER);
    if (at >= 0) {
      // k6 wraps console output in its log format; the JSON payload is escaped inside msg="…".
      const payload = extractLogMessage(line.slice(at + VIOLATION_MARKER.length));
      appendFileSync(violationsFile, `${payload}\n`);
      violationCount++;
    }
    if (!o.quiet) (toStderr ? process.stderr : process.stdout).write(`${o.prefix ?? ''}${line}\n`);
  };
  createInterface({ input: child.stdout }).on('line', (l) => handleLine(l, false));
  createInterface({ input: child.stderr }).on('line', (l) => handleLine(l, true));
  const exitCode = await new Promise<number>((ok, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) => ok(code ?? (signal ? 128 : 1)));
  });
  clearInterval(sampler);
  const handedOver = join(o.reportDir, REPORT_HANDOVER_FILE);
  const report = existsSync(handedOver) ? (JSON.parse(readFileSync(handedOver, 'utf8')) as RunReport) : undefined;
  const connection = loadConnection(o.connection, wire);
  if (report && connection) report.meta.connection = connection;
  if (report) writeLoadReport(o.reportDir, report);
  return {
    exitCode,
    peakRssKb,
    report,
    violationsFile,
    violationCount,
    abortReason,
    scriptError,
    ...(wire ? { wire } : {}),
  };
}

/** What k6 spoke, from the line discovery prints after its first answer (`wfcheck wire: HTTP/2.0 tls1.3`). */
export function wireOf(line: string): K6RunResult['wire'] {
  const at = line.indexOf(WIRE_MARKER);
  if (at < 0) return undefined;
  const m = /^(\S+) ([\w.-]+)/.exec(line.slice(at + WIRE_MARKER.length));
  return m ? { proto: m[1]!, tls: m[2]! } : undefined;
}

/** The message of k6's `level=error msg="Error: <message>\n\tat …" hint="script exception"` line. */
export function scriptErrorOf(line: string): string | undefined {
  if (!line.includes('hint="script exception"')) return undefined;
  const m = /msg="((?:[^"\\]|\\.)*)"/.exec(line);
  if (!m) return undefined;
  let text = m[1]!;
  try {
    text = JSON.parse(`"${text}"`) as string;
  } catch {
    /* keep the escaped text */
  }
  return text.split('\n', 1)[0]!.replace(/^(?:[A-Z]\w*)?Error: /, '');
}

/** The reason in k6's `level=error msg="test aborted: <reason>"` line (escaped as a Go quoted string). */
export function abortReasonOf(line: string): string | undefined {
  const m = /msg="test aborted: ((?:[^"\\]|\\.)*)"/.exec(line);
  if (!m) return undefined;
  try {
    return (JSON.parse(`"${m[1]}"`) as string).replace(/ at (?:setup|default|\w+) \(file:\/\/\S+\)$/, '');
  } catch {
    return m[1];
  }
}

/** Recovers the console message from a k6 log line (`… msg="<escaped>" source=console`). */
function extractLogMessage(rest: string): string {
  const end = rest.lastIndexOf('" source=console');
  const body = end >= 0 ? rest.slice(0, end) : rest;
  try {
    return JSON.stringify(JSON.parse(JSON.parse(`"${body}"`)));
  } catch {
    try {
      return JSON.stringify(JSON.parse(body));
    } catch {
      return JSON.stringify({ unparsed: body });
    }
  }
}
