/**
 * The connection check of a conformance run, before its probe: the way to the target as the settings
 * give it, what it shows (in the log and the report's header), the certificate's clause recorded in the
 * run's evidence, and a TLS or proxy failure said in one line with the setting that fixes it, in place of
 * the probe's "cannot be reached".
 */
import { join } from 'node:path';
import { checkConnection, type ConnectionFailure } from '../../core/connection/connection-check.ts';
import {
  connectionLine,
  insecureLine,
  NODE_CLIENT_SPEAKS,
  type ConnectionFacts,
} from '../../core/connection/connection-facts.ts';
import { EvidenceWriter } from '../../core/evidence/records.ts';
import { Verdict } from '../../core/evidence/verdict.ts';
import { judgeCertificate } from '../../core/judging/certificate.ts';

export interface CheckedWay {
  facts?: ConnectionFacts;
  failure?: ConnectionFailure;
}

export async function checkTheWay(
  baseUrl: string,
  outDir: string,
  o: { strict: boolean; timeoutMs?: number; log: (line: string) => void; warn: (line: string) => void },
): Promise<CheckedWay> {
  const { facts, failure } = await checkConnection(baseUrl, o.timeoutMs);
  if (facts && !failure) {
    o.log(`connection: ${connectionLine(facts, NODE_CLIENT_SPEAKS)}`);
    const insecure = insecureLine(facts);
    if (insecure) o.warn(insecure);
    judgeCertificate(Verdict.detached(new EvidenceWriter(join(outDir, 'evidence'), 'connection'), o.strict), facts);
  }
  return { ...(facts ? { facts } : {}), ...(failure ? { failure } : {}) };
}
