import { test, expect } from '@playwright/test';
import { readConformanceSettings, loadRunConfig } from './run-config.ts';
import { DEFAULT_PROFILE, PROFILE_CHOICE, PROFILE_NAMES } from '../../load/k6/lib/profiles.ts';
import { readLoadRunSettings } from '../../load/settings.ts';
import { readTargetSettings } from './target-settings.ts';
import { baseUrl, flag, list, number, oneOf, positiveInt, SettingError, wholeNumber } from './rules.ts';

test('a flag is on or off by one rule, and anything else is refused with the variable named', () => {
  for (const on of ['1', 'true', 'YES', 'on', ' On ']) expect(flag(on, 'X')).toBe(true);
  for (const off of ['0', 'false', 'no', 'OFF']) expect(flag(off, 'X', true)).toBe(false);
  expect(flag(undefined, 'X', true)).toBe(true);
  expect(flag('', 'X')).toBe(false);
  expect(() => flag('maybe', 'WFCHECK_STRICT')).toThrow(/^WFCHECK_STRICT must be 1, true, yes or on .*got "maybe"$/);
});

test('numbers: integers in plain digits, decimals within their range, blank meaning unset', () => {
  expect(positiveInt('12', 'N', 4)).toBe(12);
  expect(positiveInt(' ', 'N', 4)).toBe(4);
  expect(positiveInt(undefined, 'N')).toBeUndefined();
  for (const bad of ['0', '-1', '1.5', 'x', '1e3'])
    expect(() => positiveInt(bad, '--workers', 4)).toThrow(`--workers must be a positive integer, got "${bad}"`);
  expect(wholeNumber('0', 'SEED')).toBe(0);
  expect(() => wholeNumber('-3', 'SEED')).toThrow('SEED must be a non-negative integer, got "-3"');
  expect(number('0.25', 'S', 1, { min: 0, max: 1 })).toBe(0.25);
  expect(() => number('2', 'CONTRACT_CHECK_SAMPLE', 1, { min: 0, max: 1 })).toThrow(
    'CONTRACT_CHECK_SAMPLE must be a number from 0 to 1, got "2"',
  );
  expect(() => number('0', '--timeout', 300, { positive: true })).toThrow(
    '--timeout must be a positive number, got "0"',
  );
  expect(oneOf(undefined, '--mode', ['auto', 'process'], 'auto')).toBe('auto');
  expect(() => oneOf('x', '--mode', ['auto', 'process'], 'auto')).toThrow(
    '--mode must be one of auto, process, got "x"',
  );
  expect(list(' a, ,b ')).toEqual(['a', 'b']);
});

test('BASE_URL is an http(s) URL ending in /v1; trailing slashes are dropped', () => {
  expect(baseUrl('https://api.example.com/v1/')).toBe('https://api.example.com/v1');
  expect(baseUrl(' http://127.0.0.1:4010/v1 ')).toBe('http://127.0.0.1:4010/v1');
  expect(() => baseUrl('ftp://x/v1')).toThrow(/^BASE_URL must be an http\(s\) URL ending in \/v1/);
  expect(() => baseUrl('http://x/api')).toThrow('BASE_URL must end in /v1, got "http://x/api"');
  expect(() => baseUrl('http://x/v1?a=1')).toThrow(SettingError);
  expect(() => baseUrl(undefined)).toThrow(/^BASE_URL is not set/);
});

test('the target: BASE_URL with its key, else the reference target (empty counts as unset)', () => {
  expect(readTargetSettings({ BASE_URL: 'http://x/v1/', API_KEY: 'k', API_KEY_B: '' })).toEqual({
    kind: 'external',
    baseUrl: 'http://x/v1',
    apiKey: 'k',
    apiKeyB: undefined,
  });
  expect(readTargetSettings({ BASE_URL: '', API_KEY: '' })).toEqual({
    kind: 'reference',
    inProcess: false,
    seedFile: undefined,
  });
  expect(readTargetSettings({ WFCHECK_TARGET_BOOT: 'inprocess' })).toMatchObject({
    kind: 'reference',
    inProcess: true,
  });
  expect(() => readTargetSettings({ BASE_URL: 'http://x/v1' })).toThrow(
    'BASE_URL is set but API_KEY is not: both name the implementation under test',
  );
});

test('a command-line option takes the place of its variable, and an error names whichever was used', () => {
  const env = { WFCHECK_WORKERS: '3', WFCHECK_STRICT: 'on', SEED: '7' };
  const s = readConformanceSettings({}, ['--shard=1/3'], env);
  expect(s).toMatchObject({
    workers: 3,
    strict: true,
    seed: 7,
    seedGiven: true,
    runTimeoutS: 300,
    extra: ['--shard=1/3'],
  });
  expect(readConformanceSettings({ workers: '2', seed: '9' }, [], env)).toMatchObject({ workers: 2, seed: 9 });
  expect(() => readConformanceSettings({}, [], { WFCHECK_WORKERS: 'x' })).toThrow(
    'WFCHECK_WORKERS must be a positive integer, got "x"',
  );
  expect(() => readConformanceSettings({ workers: 'x' }, [], {})).toThrow(
    '--workers must be a positive integer, got "x"',
  );
  expect(readConformanceSettings({}, [], {}).seedGiven).toBe(false);
  expect(
    readLoadRunSettings({ profile: 'average' }, PROFILE_CHOICE, { PROFILE: 'stress', VUS_SCALE: '2' }),
  ).toMatchObject({ profile: 'average', vusScale: 2 });
  expect(() => readLoadRunSettings({ 'contract-sample': '1.5' }, PROFILE_CHOICE, {})).toThrow(
    '--contract-sample must be a number from 0 to 1, got "1.5"',
  );
  // The profile is one of the table's, named by the option or the variable it came from; unset, the table's default.
  expect(readLoadRunSettings({}, PROFILE_CHOICE, {}).profile).toBe(DEFAULT_PROFILE);
  expect(() => readLoadRunSettings({ profile: 'huge' }, PROFILE_CHOICE, {})).toThrow(
    `--profile must be one of ${PROFILE_NAMES.join(', ')}, got "huge"`,
  );
  expect(() => readLoadRunSettings({}, PROFILE_CHOICE, { PROFILE: 'huge' })).toThrow(/^PROFILE must be one of /);
});

test("the suites' run configuration keeps its defaults, by target kind", () => {
  const base = { BASE_URL: 'http://x/v1', API_KEY: 'k', SEED: '1' };
  expect(loadRunConfig({ ...base })).toMatchObject({
    targetKind: 'external',
    requestTimeoutMs: 10_000,
    maxBodyBytes: 8 * 1024 * 1024,
    pollIntervalMs: 1000,
    pollTimeoutMs: 120_000,
    maxRuns: 30,
    allowOverwrite: false,
    strict: false,
  });
  expect(loadRunConfig({ ...base, WFCHECK_TARGET_KIND: 'reference', WFCHECK_ALLOW_OVERWRITE: '1' })).toMatchObject({
    targetKind: 'reference',
    pollIntervalMs: 50,
    pollTimeoutMs: 15_000,
    maxRuns: 200,
    allowOverwrite: true,
  });
  expect(() => loadRunConfig({ ...base, SEED: undefined })).toThrow(/^SEED is not set/);
});
