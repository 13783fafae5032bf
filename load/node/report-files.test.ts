import { expect, test } from '@playwright/test';
import { REPORT_FORMATS } from '../../core/report/formats.ts';
import { REPORT_HANDOVER_FILE, type RunReport } from '../k6/lib/run-report.ts';
import { LOAD_REPORT_FILES, loadViews } from './report-files.ts';
import { renderReport } from '../../core/report/formats.ts';

const REPORT: RunReport = {
  meta: {
    profile: 'smoke',
    scenarios: ['readMix'],
    seed: 1,
    baseUrl: 'http://x/v1',
    contractSample: 1,
    durationMs: 1000,
    evaluation: 'single',
  },
  passed: false,
  thresholds: [{ metric: 'http_req_failed', expression: 'rate<0.01', ok: false, actual: 0.5 }],
  metrics: {},
};

test("k6 hands its report over as the JSON format's file, which the Node side then writes as the table renders it", () => {
  // k6 cannot load the table (only the kit's escaper and JUnit renderer): the name is written twice, held equal here.
  expect(REPORT_HANDOVER_FILE).toBe(REPORT_FORMATS.json.file);
  const files = renderReport(loadViews(REPORT));
  expect(files.map((f) => f.file)).toEqual(LOAD_REPORT_FILES);
  expect(JSON.parse(files.find((f) => f.format === 'json')!.text)).toEqual(REPORT);
  expect(files.find((f) => f.format === 'text')!.text).toContain('VERDICT: FAIL');
  expect(files.find((f) => f.format === 'junit')!.text).toMatch(/<failure message="actual 0.5 breaches rate&lt;0.01"/);
});
