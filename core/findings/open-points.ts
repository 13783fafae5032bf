/**
 * The run's answers to the points the specification leaves open (contracts/open-points.ts): every
 * observation and every judged check of a should clause with another reading carries, besides its
 * sentence, a value of its point's vocabulary; here they are gathered per point, folded into the run's
 * answer, and each value of it keeps one record as its example (the sentence and the exchange it was
 * read from).
 *
 * Stable by construction: the values are the vocabulary's (timing, ids and sizes stripped from anything
 * kept verbatim), listed in the vocabulary's order, and the example of a value is the same record
 * whatever order the workers wrote the evidence in.
 */
import {
  answerOf,
  answersOfCheck,
  answersOfObservation,
  openPoint,
  OPEN_POINTS,
  type PointValue,
} from '../../contracts/open-points.ts';
import { textOf } from '../../contracts/open-point-values.ts';
import type { CheckRecord, ExchangeRecord, ObservationRecord } from '../evidence/records.ts';
import { excerptOf, type EvidenceIndex } from './evidence-index.ts';
import type { OpenPointAnswer, OpenPointEvidence, OpenPointValue } from './report-model.ts';

interface Answered {
  value: string;
  sentence: string;
  exchangeId?: string;
}

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 299)}…` : text);

function fromObservation(o: ObservationRecord): { values: PointValue[]; answered: Omit<Answered, 'value'> } {
  return {
    values: o.points ?? answersOfObservation(o.requirementId, o.key, o.value),
    answered: { sentence: clip(`${o.key}: ${textOf(o.value)}`), exchangeId: o.exchangeId },
  };
}

function fromCheck(c: CheckRecord): { values: PointValue[]; answered: Omit<Answered, 'value'> } {
  const judged = c.outcome === 'pass' || c.outcome === 'fail';
  return {
    values: c.points ?? (judged ? answersOfCheck(c.requirementId, c.outcome === 'pass') : []),
    answered: { sentence: clip(c.actual ? `${c.message}: ${c.actual}` : c.message), exchangeId: c.exchangeId },
  };
}

function evidenceOf(x: ExchangeRecord | undefined): OpenPointEvidence | undefined {
  if (!x) return undefined;
  return {
    ...(x.operation ? { operation: x.operation } : {}),
    ...(x.response ? { status: x.response.status } : {}),
    ...excerptOf(x),
    curl: x.curl,
  };
}

/** The example of a value: the record whose sentence sorts first (the same one in any order of the evidence). */
function exampleOf(records: readonly Answered[]): Answered {
  return [...records].sort((a, b) => a.sentence.localeCompare(b.sentence) || (a.exchangeId ? -1 : 1))[0]!;
}

/** Every point the run answered, in the table's order. */
export function openPointsOf(ix: EvidenceIndex): OpenPointAnswer[] {
  const byPoint = new Map<string, Answered[]>();
  const sources = [...ix.observations.map(fromObservation), ...ix.checks.map(fromCheck)];
  for (const { values, answered } of sources)
    for (const { point, value } of values) {
      const list = byPoint.get(point) ?? [];
      list.push({ ...answered, value });
      byPoint.set(point, list);
    }
  const known = OPEN_POINTS.map((p) => p.id);
  const ids = [...known.filter((id) => byPoint.has(id)), ...[...byPoint.keys()].filter((id) => !known.includes(id))];
  return ids.map((id) => {
    const records = byPoint.get(id)!;
    const point = openPoint(id);
    const values = answerOf(
      point,
      records.map((r) => r.value),
    ).map((value): OpenPointValue => {
      // A value folded from several (an order of search) stands for all of them.
      const own = records.filter((r) => r.value === value);
      const giving = own.length ? own : records;
      const example = exampleOf(giving);
      const evidence = example.exchangeId ? evidenceOf(ix.exchanges.get(example.exchangeId)) : undefined;
      return {
        value,
        count: giving.length,
        sentence: example.sentence,
        ...(example.exchangeId ? { exchangeId: example.exchangeId } : {}),
        ...(evidence ? { evidence } : {}),
      };
    });
    return { point: id, requirementId: point?.clause ?? '', question: point?.question ?? '', values };
  });
}
