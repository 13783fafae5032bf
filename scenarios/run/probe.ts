/**
 * A few requests through the contract-checked client before any test runs (their exchanges land in
 * the evidence). A target that cannot be reached at all, or that answers every operation with a server
 * error, a page that is not JSON, or nothing, would only make every test fail or time out one by one
 * until the run deadline: the run reports that at once instead, the fault named, every requirement
 * "not run".
 */
import { loadRunConfig } from '../../core/settings/run-config.ts';
import { ApiClient } from '../../core/client/client.ts';
import type { Exchange, RequestSpec } from '../../core/transport/exchange.ts';
import { EvidenceWriter, type EvidenceRecord } from '../../core/evidence/records.ts';
import { Verdict } from '../../core/evidence/verdict.ts';

/** Transport faults that mean the target cannot be reached at all (an answer of any kind is reachable). */
const UNREACHABLE = new Set([
  'connection-refused',
  'connection-reset',
  'timeout',
  'network-error',
  // The way to it failed: its certificate not trusted, no client certificate, the proxy refusing.
  'tls-error',
  'proxy-error',
]);

export interface Unreachable {
  /** A transport fault kind, or `broken-target` when every probe was answered unusably. */
  kind: string;
  message: string;
}

/** What a probe answer shows when no operation of the target can be judged: undefined when it is usable. */
function unusable(ex: Exchange): string | undefined {
  const what = `${ex.record.method} ${ex.record.url.replace(/^.*?\/v1/, '')}`;
  if (ex.fault) return `${what}: ${ex.fault.kind}`;
  if (ex.status !== undefined && ex.status >= 500)
    return `${what}: ${ex.status} ${ex.headers['content-type'] ?? '(no content type)'}`;
  if (!ex.parsed)
    return `${what}: ${ex.status} with a body that is not JSON (${ex.headers['content-type'] ?? 'no content type'})`;
  return undefined;
}

/**
 * The probes' verdicts are not recorded: when the target is broken, every requirement is "not run" with
 * the fault named; when it is not, the suites judge the same answers again with their own evidence.
 */
class NoVerdicts extends EvidenceWriter {
  override write(record: EvidenceRecord): void {
    if (record.kind === 'exchange') super.write(record);
  }
}

/** The fault when the target cannot be reached or answers nothing usably; undefined when the suites can run. */
export async function probeTarget(
  env: NodeJS.ProcessEnv,
  evidenceDir: string,
  strict: boolean,
): Promise<Unreachable | undefined> {
  const writer = new NoVerdicts(evidenceDir, 'probe');
  // A copy: the suites' configuration of this process is not cached from the runner's env.
  const config = loadRunConfig({ ...env });
  const api = new ApiClient({
    config,
    caller: { name: 'A', apiKey: config.apiKey },
    writer,
    verdict: Verdict.detached(writer, strict),
  });
  // Not judged: a target that resets every connection is unreachable (exit 2), not a failing one.
  const quiet: Partial<RequestSpec> = { allowFault: true, judgeFaults: false };
  const first = await api.search({}, { ...quiet, label: 'reachability probe' });
  if (first.fault && UNREACHABLE.has(first.fault.kind)) return first.fault;
  if (!unusable(first)) return undefined;
  // One operation answering badly is for the suites to judge; every operation answering badly is a broken target.
  const others = [
    await api.detail('wfcheck-probe-unknown-canvas', { ...quiet, label: 'usability probe' }),
    await api.status('wfcheck-probe-unknown-execution', { ...quiet, label: 'usability probe' }),
    await api.search({}, { ...quiet, auth: { kind: 'none' }, label: 'usability probe without a key' }),
  ];
  const answers = [first, ...others].map(unusable);
  if (answers.some((a) => a === undefined)) return undefined;
  return { kind: 'broken-target', message: `no operation answers usably: ${answers.join('; ')}` };
}

/** How the run names a probe's finding in its log and report. */
export function describeProbeFault(f: Unreachable): string {
  return f.kind === 'broken-target'
    ? `the target is broken (${f.message})`
    : `the target cannot be reached (${f.kind}: ${f.message})`;
}
