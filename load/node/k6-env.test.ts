/**
 * What Node hands to k6 is written by k6ScriptEnv alone, with the names of K6_SCRIPT_ENV: the list the
 * k6 reader (load/k6/lib/config.ts) reads, as load/k6/lib/config.test.ts shows.
 */
import { test, expect } from '@playwright/test';
import { resolve } from 'node:path';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import { readK6ScriptSettings } from '../settings.ts';
import { ENV, K6_SCRIPT_ENV, type K6ScriptValues } from '../../core/settings/rules.ts';
import { k6RunnerEnv, k6ScriptEnv } from './k6-env.ts';

const required = {
  baseUrl: 'http://127.0.0.1:4010/v1',
  apiKey: 'key',
  profile: 'smoke',
  seed: 7,
  dataFile: 'data.json',
  reportDir: 'out',
};

test('the script environment uses the names of K6_SCRIPT_ENV only', () => {
  const env = k6ScriptEnv({
    ...required,
    scenarios: 'readMix',
    duration: '5s',
    vusScale: 2,
    contractSample: 0.5,
    segmentLabel: '1/2',
    nodeCheckerUrl: 'http://127.0.0.1:9/check',
    passOn: { [ENV.thinkTimeS]: '0.5', [ENV.sloLatencyScale]: '2' },
  });
  for (const name of Object.keys(env)) expect(K6_SCRIPT_ENV).toContain(name);
  expect(env).toEqual({
    BASE_URL: required.baseUrl,
    API_KEY: 'key',
    PROFILE: 'smoke',
    SEED: '7',
    LOAD_DATA_FILE: resolve('data.json'),
    REPORT_DIR: resolve('out'),
    SCENARIOS: 'readMix',
    DURATION: '5s',
    VUS_SCALE: '2',
    CONTRACT_CHECK_SAMPLE: '0.5',
    SEGMENT_LABEL: '1/2',
    CONTRACT_CHECK_SINK: 'http://127.0.0.1:9/check',
    THINK_TIME_S: '0.5',
    SLO_LATENCY_SCALE: '2',
  });
});

test("settings passed on as given yield to the run's own, and a name k6 does not read is refused", () => {
  const passOn = { [ENV.seed]: '1', [ENV.contractSink]: 'http://elsewhere/check', [ENV.allowOverwrite]: '1' };
  expect(k6ScriptEnv({ ...required, passOn })).toMatchObject({
    SEED: '7',
    CONTRACT_CHECK_SINK: 'http://elsewhere/check',
    WFCHECK_ALLOW_OVERWRITE: '1',
  });
  expect(k6ScriptEnv({ ...required, passOn, nodeCheckerUrl: 'http://sink/check' }).CONTRACT_CHECK_SINK).toBe(
    'http://sink/check',
  );
  const misspelt = { THINK_TIME: '1' } as K6ScriptValues;
  expect(() => k6ScriptEnv({ ...required, passOn: misspelt })).toThrow(
    'THINK_TIME is not a setting of the k6 scripts (K6_SCRIPT_ENV)',
  );
});

test("the command environment's script settings reach k6 through the writer, the rest passes untouched", () => {
  const command = { PATH: '/bin', HOME: '/h', THINK_TIME_S: '0.2', SLO_MAX_FAILED_RATE: '', BASE_URL: 'http://x/v1' };
  expect(readK6ScriptSettings(command)).toEqual({
    THINK_TIME_S: '0.2',
    SLO_MAX_FAILED_RATE: '',
    BASE_URL: 'http://x/v1',
  });
  expect(inheritedEnvironment({ without: K6_SCRIPT_ENV }, command)).toEqual({ PATH: '/bin', HOME: '/h' });
  expect(inheritedEnvironment({ only: ['HOME', 'TERM'] }, command)).toEqual({ HOME: '/h' });
});

test("k6's own options: no usage report, and the dashboard's export beside the reports when asked", () => {
  expect(k6RunnerEnv({ reportDir: 'out', profile: 'smoke' })).toEqual({ K6_NO_USAGE_REPORT: 'true' });
  expect(k6RunnerEnv({ reportDir: 'out', profile: 'smoke', duration: '10s', dashboard: true })).toMatchObject({
    K6_WEB_DASHBOARD: 'true',
    K6_WEB_DASHBOARD_PORT: '-1',
    K6_WEB_DASHBOARD_EXPORT: resolve('out', 'dashboard.html'),
  });
});
