/**
 * The way to the target in a load report's header (report.txt, report.json): `--insecure` when the
 * certificate was not checked, the connection as the Node side's check saw it with what k6 spoke (HTTP/2
 * when the server offers it over TLS, read from k6's first answer), and the certificate's clause as its one
 * decision reads it (a should: a warning, never a gate).
 */
import {
  CERTIFICATE_CLAUSE,
  certificateDecision,
  connectionLine,
  insecureLine,
  type ConnectionFacts,
} from '../../core/connection/connection-facts.ts';
import type { LoadConnection } from '../k6/lib/run-report.ts';

/** What k6 spoke, in words: "k6 spoke HTTP/2.0 over tls1.3". */
function spoke(k6: LoadConnection['k6']): string | undefined {
  if (!k6) return undefined;
  return `k6 spoke ${k6.proto}${k6.tls === 'no-tls' ? '' : ` over ${k6.tls}`}`;
}

export function loadConnection(
  facts: ConnectionFacts | undefined,
  k6?: LoadConnection['k6'],
): LoadConnection | undefined {
  if (!facts && !k6) return undefined;
  const insecure = facts && insecureLine(facts);
  const decision = facts && certificateDecision(facts);
  return {
    lines: [
      ...(insecure ? [insecure] : []),
      facts ? `connection: ${connectionLine(facts, spoke(k6))}` : `connection: ${spoke(k6)}`,
      ...(decision ? [`[${decision.pass ? 'PASS' : 'WARN'}] ${CERTIFICATE_CLAUSE} ${decision.message}`] : []),
    ],
    ...(k6 ? { k6 } : {}),
    ...(facts ? { facts } : {}),
  };
}
