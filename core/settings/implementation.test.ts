/**
 * The implementation a run is recorded under: --name and --target-version, or WFCHECK_TARGET_NAME and
 * WFCHECK_TARGET_VERSION; the option wins; a version without a name, a label with control characters or
 * one too long is refused with the name of what gave it.
 */
import { expect, test } from '@playwright/test';
import { readConformanceSettings } from './run-config.ts';
import { readExploreSettings } from '../../explore/settings.ts';
import { readImplementation } from './history-settings.ts';
import { SettingError } from './rules.ts';

test('the name and version come from the options, else from the environment', () => {
  expect(readImplementation({})).toBeUndefined();
  expect(readImplementation({ name: ' go ' }, {})).toEqual({ name: 'go' });
  expect(readImplementation({}, { WFCHECK_TARGET_NAME: 'python', WFCHECK_TARGET_VERSION: '3.11' })).toEqual({
    name: 'python',
    version: '3.11',
  });
  expect(
    readImplementation(
      { name: 'vendor-a', 'target-version': '2.0' },
      { WFCHECK_TARGET_NAME: 'x', WFCHECK_TARGET_VERSION: 'y' },
    ),
  ).toEqual({ name: 'vendor-a', version: '2.0' });
  expect(readConformanceSettings({ name: 'go' }, [], {}).implementation).toEqual({ name: 'go' });
  expect(readExploreSettings({}, { WFCHECK_TARGET_NAME: 'go' }).implementation).toEqual({ name: 'go' });
});

test('a version without a name, or a label that is not one, is refused', () => {
  expect(() => readImplementation({ 'target-version': '1.0' }, {})).toThrow(/give --name \(WFCHECK_TARGET_NAME\) too/);
  expect(() => readImplementation({ name: 'a\nb' }, {})).toThrow(SettingError);
  expect(() => readImplementation({}, { WFCHECK_TARGET_NAME: 'x'.repeat(65) })).toThrow(
    /WFCHECK_TARGET_NAME must be a label of at most 64 printable characters/,
  );
});
