/**
 * What the examples in a run's violations.ndjson say, in one line per operation: the clauses broken
 * (must level) and warned about (should level), so the run's closing output names them.
 */
import { existsSync, readFileSync } from 'node:fs';

interface Logged {
  operation?: string;
  violations?: { requirementId?: string; level?: string }[];
}

export interface ClausesOfOperation {
  operation: string;
  must: string[];
  should: string[];
}

export function clausesInExamples(file: string): ClausesOfOperation[] {
  if (!existsSync(file)) return [];
  const byOperation = new Map<string, { must: Set<string>; should: Set<string> }>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let logged: Logged;
    try {
      logged = JSON.parse(line) as Logged;
    } catch {
      continue;
    }
    const entry = byOperation.get(logged.operation ?? '?') ?? { must: new Set<string>(), should: new Set<string>() };
    byOperation.set(logged.operation ?? '?', entry);
    for (const v of logged.violations ?? []) {
      if (v.requirementId && (v.level === 'must' || v.level === 'should')) entry[v.level].add(v.requirementId);
    }
  }
  return [...byOperation]
    .map(([operation, c]) => ({ operation, must: [...c.must].sort(), should: [...c.should].sort() }))
    .sort((a, b) => a.operation.localeCompare(b.operation));
}

export function describeClauses(clauses: readonly ClausesOfOperation[]): string[] {
  return clauses
    .filter((c) => c.must.length + c.should.length > 0)
    .map((c) => {
      const parts: string[] = [];
      if (c.must.length) parts.push(`breaks ${c.must.join(', ')}`);
      if (c.should.length) parts.push(`warned about ${c.should.join(', ')}`);
      return `${c.operation}: ${parts.join('; ')}`;
    });
}
