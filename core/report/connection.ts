/**
 * The way to the target in a report's header, the same in every mode's report: `--insecure` in words no
 * reader misses, the connection in one line (TLS version, what the server offers over ALPN and what the
 * mode speaks, the certificate and its expiry, the proxy, the trust given) and, where the mode has no
 * clause table of its own, the certificate's clause as decided by its one judge.
 */
import {
  CERTIFICATE_CLAUSE,
  certificateDecision,
  connectionLine,
  insecureLine,
  type ConnectionFacts,
} from '../connection/connection-facts.ts';
import { verdictMark } from './verdict-marks.ts';
import { type Block, paragraph } from './document.ts';

export function connectionBlocks(
  c: ConnectionFacts | undefined,
  o: { speaks: string; certificate?: boolean },
): Block[] {
  if (!c) return [];
  const insecure = insecureLine(c);
  const decision = o.certificate ? certificateDecision(c) : undefined;
  return [
    ...(insecure ? [paragraph({ strong: insecure }, 'headline exit-2')] : []),
    paragraph(`Connection: ${connectionLine(c, o.speaks)}`, 'dim'),
    ...(decision
      ? [
          paragraph([
            verdictMark(decision.pass ? 'pass' : 'warn'),
            ' ',
            { code: CERTIFICATE_CLAUSE },
            ` ${decision.message}`,
          ]),
        ]
      : []),
  ];
}
