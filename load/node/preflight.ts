/**
 * The connection check of a load command (load, distributed, capacity) before k6 starts: the way to the
 * target as the settings give it, said in the log; a TLS or proxy failure ends the command in one line
 * naming the setting that fixes it, the same line the other modes print, before k6 costs a second.
 */
import { checkConnection } from '../../core/connection/connection-check.ts';
import { connectionLine, insecureLine, type ConnectionFacts } from '../../core/connection/connection-facts.ts';

/** The way failed: the command ends with this message (exit 2). */
export class UnreachableTarget extends Error {
  constructor(kind: string, line: string) {
    super(`the target cannot be reached (${kind}: ${line})`);
    this.name = 'UnreachableTarget';
  }
}

/** Checks the way to `baseUrl` with this process's connection; the facts, or throws UnreachableTarget. */
export async function checkWay(baseUrl: string, log: (line: string) => void): Promise<ConnectionFacts | undefined> {
  const { facts, failure } = await checkConnection(baseUrl);
  if (failure) throw new UnreachableTarget(failure.kind, failure.line);
  if (facts) {
    log(`connection: ${connectionLine(facts, 'k6 negotiates HTTP/2 where offered')}`);
    const insecure = insecureLine(facts);
    if (insecure) log(insecure);
  }
  return facts;
}
