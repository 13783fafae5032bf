/**
 * The generative report counts deviations, grouped by evidence: what the answers and the minimal inputs
 * of the findings share. Table-driven over findings as the exploration writes them.
 */
import { expect, test } from '@playwright/test';
import type { OperationId } from '../../contracts/check.ts';
import { deviationsOf, type ExploreFinding } from './explore-report.ts';

let n = 0;

/** A finding of `operation` under `clause`, answered `status` (undefined: a transport fault), with its input's shape. */
function finding(
  operation: OperationId,
  clause: string,
  status: number | undefined,
  shape: string[],
  extra: Partial<ExploreFinding> = {},
): ExploreFinding {
  return {
    fingerprint: `fp${++n}`,
    operation,
    clause,
    level: 'must',
    catalogued: true,
    property: 'allowed',
    family: 'allowed',
    message: 'm',
    expected: 'e',
    actual: 'a',
    alsoBreaks: [],
    shape,
    minimalInput: {},
    exchange: {
      request: { method: 'GET', url: 'http://127.0.0.1/v1/x', headers: {}, bodyBytes: 0 },
      ...(status === undefined
        ? { fault: { kind: 'connection-reset', message: 'reset' } }
        : { response: { status, bodyExcerpt: '' } }),
    },
    curl: 'curl',
    replay: { seed: 1, propertySeed: 1, path: '0', round: 1, numRuns: 1, shrinks: 0, simplified: 0 },
    reproduced: true,
    shrinkComplete: true,
    occurrences: 1,
    ...extra,
  };
}

const CASES: { name: string; findings: () => ExploreFinding[]; deviations: number }[] = [
  {
    name: 'an id longer than 64 characters crashing every operation that takes one',
    findings: () => [
      finding('getWorkflowDetail', 'DETAIL-HTTP-STATUS-LISTED', 500, ['canvasId:len>64']),
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 500, ['canvasId:len>64']),
      finding('getExecutionStatus', 'STATUS-HTTP-STATUS-LISTED', 500, ['executionId:len>64']),
    ],
    deviations: 1,
  },
  {
    name: 'two crashing inputs of different shapes',
    findings: () => [
      finding('searchWorkflows', 'SEARCH-HTTP-STATUS-LISTED', 500, ['pageSize:>1000']),
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 500, ['vars.*:structured']),
    ],
    deviations: 2,
  },
  {
    name: 'one class of number crashing page and pageSize alike',
    findings: () => [
      finding('searchWorkflows', 'SEARCH-HTTP-STATUS-LISTED', 500, ['page', 'page:any(exponent,|x|>2^53)']),
      finding('searchWorkflows', 'SEARCH-HTTP-STATUS-LISTED', 500, ['pageSize', 'pageSize:any(exponent,|x|>2^53)']),
    ],
    deviations: 1,
  },
  {
    name: 'one class of value crashing a run variable and a field of generate alike, the query aside',
    findings: () => [
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 500, ['vars.*', 'vars.*:depth>100']),
      finding('generateWorkflow', 'GENERATE-HTTP-STATUS-LISTED', 500, ['extra.*', 'extra.*:depth>100', 'query']),
    ],
    deviations: 1,
  },
  {
    name: 'a lone surrogate in a variable and in the query: one broken encoding, wherever it stands',
    findings: () => [
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 500, ['vars.*', 'vars.*:lone-surrogate']),
      finding('generateWorkflow', 'GENERATE-HTTP-STATUS-LISTED', 500, ['query', 'query:lone-surrogate']),
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 500, ['vars.*', 'vars.*#name:lone-surrogate']),
    ],
    deviations: 1,
  },
  {
    name: 'a class of variable name reached by an allowed and a forbidden input',
    findings: () => [
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 500, ['vars.*', 'vars.*#name:any(space,punct)']),
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 500, ['vars.*', 'vars.*#name:any(space,punct)'], {
        property: 'forbidden',
        family: 'null-value',
      }),
    ],
    deviations: 1,
  },
  {
    name: 'two classes of one parameter are two deviations',
    findings: () => [
      finding('searchWorkflows', 'SEARCH-HTTP-STATUS-LISTED', 500, ['keyword', 'keyword:any(two-byte,four-byte)']),
      finding('searchWorkflows', 'SEARCH-HTTP-STATUS-LISTED', 500, ['keyword', 'keyword:len>32']),
    ],
    deviations: 2,
  },
  {
    name: 'one envelope field missing from the answers of every operation, whatever input drew them',
    findings: () => [
      finding('searchWorkflows', 'SEARCH-200-ENVELOPE', 200, ['keyword:absent']),
      finding('getWorkflowDetail', 'DETAIL-200-ENVELOPE', 200, ['canvasId:len>0']),
      finding('uploadFiles', 'UPLOAD-200-ENVELOPE', 200, ['file.name:len>0']),
    ],
    deviations: 1,
  },
  {
    name: 'server errors that did not come back on their minimal input: one intermittent fault',
    findings: () => [
      finding('searchWorkflows', 'SEARCH-HTTP-STATUS-LISTED', 503, ['keyword:two-byte'], { reproduced: false }),
      finding('uploadFiles', 'UPLOAD-HTTP-STATUS-LISTED', 503, ['file.name:len>0'], { reproduced: false }),
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', undefined, [], { reproduced: false }),
    ],
    deviations: 2,
  },
  {
    name: 'a stack trace in error bodies of several statuses, for allowed and forbidden inputs alike',
    findings: () => [
      finding('searchWorkflows', 'ENVELOPE-STACK-DEV-ONLY', 400, [], { level: 'should', property: 'forbidden' }),
      finding('getWorkflowDetail', 'ENVELOPE-STACK-DEV-ONLY', 404, ['canvasId:len>0'], { level: 'should' }),
      finding('uploadFiles', 'ENVELOPE-STACK-DEV-ONLY', 401, [], { level: 'should' }),
    ],
    deviations: 1,
  },
  {
    name: 'JSON labelled as text on successes and refusals alike',
    findings: () => [
      finding('searchWorkflows', 'JSON-CONTENT-TYPE', 200, [], { level: 'should' }),
      finding('getWorkflowDetail', 'JSON-CONTENT-TYPE', 404, [], { level: 'should' }),
    ],
    deviations: 1,
  },
  {
    name: 'two unlisted statuses are two habits',
    findings: () => [
      finding('runWorkflow', 'RUN-HTTP-STATUS-LISTED', 201, []),
      finding('uploadFiles', 'UPLOAD-HTTP-STATUS-LISTED', 201, []),
      finding('searchWorkflows', 'SEARCH-HTTP-STATUS-LISTED', 422, ['pageSize:<1']),
    ],
    deviations: 2,
  },
  {
    name: 'a must finding and a warning are never one deviation',
    findings: () => [
      finding('searchWorkflows', 'KEY-NOT-ECHOED', 404, [], { level: 'should' }),
      finding('searchWorkflows', 'SEARCH-200-ENVELOPE', 404, []),
    ],
    deviations: 2,
  },
];

for (const c of CASES)
  test(`deviations: ${c.name}`, () => {
    const found = c.findings();
    const deviations = deviationsOf(found);
    expect(deviations).toHaveLength(c.deviations);
    // Every finding is in exactly one deviation.
    expect(deviations.flatMap((d) => d.fingerprints).sort()).toEqual(found.map((f) => f.fingerprint).sort());
  });
