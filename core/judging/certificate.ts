/**
 * The certificate the base address is served with, as the connection check saw it: it stays valid over
 * the horizon of a nightly gate (TLS-CERT-NOT-EXPIRING). The decision is connection-facts.ts'
 * `certificateDecision`, the one every mode's report shows; this records it on a verdict, once per run.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import {
  CERTIFICATE_CLAUSE,
  CERTIFICATE_HORIZON_DAYS,
  certificateDecision,
  type ConnectionFacts,
} from '../connection/connection-facts.ts';
import { judge } from './judge.ts';

export const CERT_NOT_EXPIRING = CERTIFICATE_CLAUSE satisfies ClauseId;

/** The judge of the certificate's expiry. */
export const certificate = judge("the base address's certificate", [CERT_NOT_EXPIRING]);

/** Records the clause for a target served over https; a target without TLS records nothing. */
export const judgeCertificate = certificate.judges((v, facts: ConnectionFacts) => {
  const decision = certificateDecision(facts);
  if (!decision) return;
  v.check(CERT_NOT_EXPIRING, decision.pass, {
    message: decision.message,
    expected: `valid for at least ${CERTIFICATE_HORIZON_DAYS} days from the run`,
    actual: facts.tls?.validTo,
  });
});
