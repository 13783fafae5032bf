/**
 * The k6 scripts' one reader reads the names of K6_SCRIPT_ENV, every one of them and nothing else, so
 * the list the Node side writes from (load/node/k6-env.ts) is the list k6 reads.
 */
import { test, expect } from '@playwright/test';
import { ENV, K6_SCRIPT_ENV } from '../../../core/settings/rules.ts';
import { loadConfig } from './config.ts';

/** An environment that records every name read from it. */
function recording(values: Record<string, string>): { env: Record<string, string | undefined>; read: Set<string> } {
  const read = new Set<string>();
  const env = new Proxy(values, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  return { env, read };
}

test('the k6 reader reads every name of K6_SCRIPT_ENV, and no other', () => {
  const { env, read } = recording({ [ENV.baseUrl]: 'http://127.0.0.1:4010/v1', [ENV.apiKey]: 'key' });
  loadConfig(env);
  expect([...read].sort()).toEqual([...K6_SCRIPT_ENV].sort());
});

test('the settings that used to be read outside the reader come from it', () => {
  const cfg = loadConfig({
    [ENV.baseUrl]: 'http://127.0.0.1:4010/v1',
    [ENV.apiKey]: 'key',
    [ENV.contractSink]: 'http://127.0.0.1:9/check',
    [ENV.contractBatch]: '64',
    [ENV.segmentLabel]: '2/3',
    [ENV.loadDataFile]: '/data/load-data.json',
  });
  expect(cfg).toMatchObject({
    nodeCheckerUrl: 'http://127.0.0.1:9/check',
    contractBatch: 64,
    segmentLabel: '2/3',
    dataFile: '/data/load-data.json',
  });
  const unset = loadConfig({ [ENV.baseUrl]: 'http://127.0.0.1:4010/v1', [ENV.apiKey]: 'key', [ENV.segmentLabel]: '' });
  expect(unset).toMatchObject({ nodeCheckerUrl: undefined, contractBatch: 256, segmentLabel: undefined, dataFile: '' });
  expect(() => loadConfig({ [ENV.baseUrl]: 'http://x/v1', [ENV.apiKey]: 'k', [ENV.contractBatch]: 'many' })).toThrow(
    'CONTRACT_CHECK_BATCH must be a non-negative integer, got "many"',
  );
});
