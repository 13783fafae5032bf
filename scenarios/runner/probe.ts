/**
 * One authenticated search through the contract-checked client before any test runs (its exchange
 * lands in the evidence). A target that cannot be reached at all would only make every test time
 * out; the run reports that at once instead.
 */
import { loadRunConfig } from '../../fixtures/environment/config.ts';
import { ApiClient } from '../support/client.ts';
import { EvidenceWriter } from '../verdict/evidence.ts';
import { Verdict } from '../verdict/verdict.ts';

/** Transport faults that mean the target cannot be reached at all (an answer of any kind is reachable). */
const UNREACHABLE = new Set(['connection-refused', 'connection-reset', 'timeout', 'network-error']);

export interface Unreachable {
  kind: string;
  message: string;
}

/** The transport fault when the target cannot be reached; undefined when it answered anything. */
export async function probeTarget(env: NodeJS.ProcessEnv, evidenceDir: string, strict: boolean): Promise<Unreachable | undefined> {
  const writer = new EvidenceWriter(evidenceDir, 'probe');
  // A copy: the suites' configuration of this process is not cached from the runner's env.
  const config = loadRunConfig({ ...env });
  const api = new ApiClient(config, { name: 'A', apiKey: config.apiKey }, writer, new Verdict(writer, undefined, strict, undefined), undefined);
  const ex = await api.search({}, { label: 'reachability probe', allowFault: true });
  return ex.fault && UNREACHABLE.has(ex.fault.kind) ? ex.fault : undefined;
}
