/**
 * JUnit XML, for CI dashboards: suites of test cases, each passed (with what it printed), failed or
 * skipped; the counts of every suite and of the whole are computed from its cases. Every value goes
 * through the XML escapers.
 *
 * Pure: k6 code loads it too (the load run's gates, load/k6/lib/run-report.ts).
 */
import { xmlAttr, xmlText } from '../escape.ts';

export interface JunitCase {
  classname: string;
  name: string;
  assertions?: number;
  /** Seconds. */
  time?: number;
  /** A failed case; `text` is the element's body (the evidence). */
  failure?: { message: string; type: string; text?: string };
  skipped?: { message: string };
  /** What a passing case has to say. */
  systemOut?: string;
}

export interface JunitSuite {
  name: string;
  timestamp?: string;
  /** Seconds. */
  time?: number;
  cases: readonly JunitCase[];
}

export interface JunitDocument {
  name: string;
  /** Seconds. */
  time: number;
  suites: readonly JunitSuite[];
}

const failures = (cases: readonly JunitCase[]) => cases.filter((c) => c.failure).length;
const skipped = (cases: readonly JunitCase[]) => cases.filter((c) => c.skipped && !c.failure).length;

function caseXml(c: JunitCase): string {
  const open = `<testcase classname="${xmlAttr(c.classname)}" name="${xmlAttr(c.name)}"${
    c.assertions === undefined ? '' : ` assertions="${c.assertions}"`
  }${c.time === undefined ? '' : ` time="${c.time.toFixed(3)}"`}>`;
  const body = c.failure
    ? `<failure message="${xmlAttr(c.failure.message)}" type="${xmlAttr(c.failure.type)}"${
        c.failure.text === undefined ? '/>' : `>${xmlText(c.failure.text)}</failure>`
      }`
    : c.skipped
      ? `<skipped message="${xmlAttr(c.skipped.message)}"/>`
      : c.systemOut !== undefined
        ? `<system-out>${xmlText(c.systemOut)}</system-out>`
        : '';
  return `    ${open}${body}</testcase>`;
}

function suiteXml(s: JunitSuite): string {
  const head =
    `  <testsuite name="${xmlAttr(s.name)}" tests="${s.cases.length}" failures="${failures(s.cases)}" errors="0" ` +
    `skipped="${skipped(s.cases)}"${s.time === undefined ? '' : ` time="${s.time.toFixed(3)}"`}${
      s.timestamp === undefined ? '' : ` timestamp="${xmlAttr(s.timestamp)}"`
    }>`;
  return [head, ...s.cases.map(caseXml), '  </testsuite>'].join('\n');
}

export function renderJunit(doc: JunitDocument): string {
  const all = doc.suites.flatMap((s) => s.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(doc.name)}" tests="${all.length}" failures="${failures(all)}" errors="0" skipped="${skipped(all)}" time="${doc.time.toFixed(3)}">`,
    ...doc.suites.map(suiteXml),
    '</testsuites>',
    '',
  ].join('\n');
}
