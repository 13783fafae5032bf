/**
 * The marks of clause verdicts, the same in every mode's report: plain words, so that they read without
 * an emoji font (headless browsers and many terminals have none).
 */
import type { VerdictValue } from '../findings/build-report.ts';
import type { Mark } from './document.ts';

export const MARK: Record<VerdictValue, string> = {
  fail: 'FAIL',
  warn: 'WARN',
  waived: 'WAIVED',
  blocked: 'BLOCKED',
  'not-run': 'NOT RUN',
  observed: 'OBSERVED',
  pass: 'PASS',
};

export function verdictMark(v: VerdictValue): Mark {
  return { mark: MARK[v], tone: v };
}
