import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { commandLineFor, inInvocationForm, npmScriptOf, SUBCOMMANDS } from './command-line.ts';
import { readMergeOutDir } from './run-config.ts';
import { commandLine, readInvocation } from './invocation.ts';
import { PROFILE_CHOICE } from '../../load/k6/lib/profiles.ts';
import { readLoadRunSettings } from '../../load/settings.ts';
import { PACKAGE_ROOT, WORK_DIR } from './roots.ts';
import { ENV } from './rules.ts';

test('a command line in either form: wfcheck words, or the npm script with the arguments after --', () => {
  expect(commandLineFor('wfcheck', 'conformance', ['--seed', 7])).toBe('wfcheck conformance --seed 7');
  expect(commandLineFor('npm', 'conformance', ['--seed', 7])).toBe('npm run conformance -- --seed 7');
  expect(commandLineFor('wfcheck', 'load compare')).toBe('wfcheck load compare');
  expect(commandLineFor('npm', 'load compare')).toBe('npm run load:compare');
  expect(commandLineFor('npm', 'report merge', ['a', '--out', 'b'])).toBe('npm run report:merge -- a --out b');
  // An argument a shell would split or expand is quoted; a placeholder is left as written.
  expect(commandLineFor('wfcheck', 'conformance', ['--out', "my reports/it's"])).toBe(
    `wfcheck conformance --out 'my reports/it'\\''s'`,
  );
  expect(commandLineFor('npm', 'conformance', ['--grep', 'SEARCH-|RUN-'])).toBe(
    "npm run conformance -- --grep 'SEARCH-|RUN-'",
  );
  expect(commandLineFor('wfcheck', 'conformance', ['--seed', '<seed>'])).toBe('wfcheck conformance --seed <seed>');
});

test('every subcommand is an npm script of the repository that starts it through the command', () => {
  const scripts = (
    JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  for (const command of SUBCOMMANDS)
    expect(scripts[npmScriptOf(command)], command).toBe(`node scripts/bootstrap.mjs bin/wfcheck.mjs ${command}`);
  // …and the command offers exactly these (its table lists each by its words).
  const bin = readFileSync(join(PACKAGE_ROOT, 'bin', 'wfcheck.mjs'), 'utf8');
  const offered = [...bin.matchAll(/words: \[([^\]]+)\]/g)].map((m) =>
    [...m[1].matchAll(/'([^']+)'/g)].map((w) => w[1]).join(' '),
  );
  expect(offered.sort()).toEqual([...SUBCOMMANDS].sort());
  // The variable the command sets is the one the reader reads.
  expect(bin).toContain(`${ENV.invokedAs}: process.env.${ENV.invokedAs} === 'npm' ? 'npm' : 'wfcheck'`);
  expect(readFileSync(join(PACKAGE_ROOT, 'scripts', 'bootstrap.mjs'), 'utf8')).toContain(`${ENV.invokedAs}: 'npm'`);
});

test('a usage text written with wfcheck reads as npm scripts when an npm script started the command', () => {
  const usage = [
    'usage: wfcheck load compare [RUN] --save-baseline [FILE]',
    '       wfcheck report merge <shard dir>… [--out DIR]',
    'Target as for `wfcheck load` (BASE_URL); merge with wfcheck report merge; wfcheck history --explore',
    'wfcheck <command> --help; wfcheck loads nothing; wfcheck conformance first',
  ].join('\n');
  expect(inInvocationForm(usage, 'wfcheck')).toBe(usage);
  expect(inInvocationForm(usage, 'npm').split('\n')).toEqual([
    'usage: npm run load:compare -- [RUN] --save-baseline [FILE]',
    '       npm run report:merge -- <shard dir>… [--out DIR]',
    'Target as for `npm run load` (BASE_URL); merge with npm run report:merge; npm run history -- --explore',
    'wfcheck <command> --help; wfcheck loads nothing; npm run conformance first',
  ]);
});

test('the form is what the command set; unset, a clone means its npm scripts', () => {
  expect(readInvocation({ [ENV.invokedAs]: 'wfcheck' })).toBe('wfcheck');
  expect(readInvocation({ [ENV.invokedAs]: 'npm' })).toBe('npm');
  // These tests run from the clone, not from an installed package.
  expect(readInvocation({})).toBe('npm');
  expect(readInvocation({ [ENV.invokedAs]: 'bogus' })).toBe('npm');
  expect(commandLine('explore', ['--seed', 3], { [ENV.invokedAs]: 'wfcheck' })).toBe('wfcheck explore --seed 3');
  expect(commandLine('explore', ['--seed', 3], { [ENV.invokedAs]: 'npm' })).toBe('npm run explore -- --seed 3');
});

test('load --out is the folder of the run, refused beside --run; merge writes where an unsharded run does', () => {
  expect(readLoadRunSettings({ out: 'perf/run-1' }, PROFILE_CHOICE, {}).outDir).toBe(join(WORK_DIR, 'perf', 'run-1'));
  expect(readLoadRunSettings({ run: 'nightly' }, PROFILE_CHOICE, {}).outDir).toBeUndefined();
  expect(() => readLoadRunSettings({ out: 'a', run: 'b' }, PROFILE_CHOICE, {})).toThrow(
    /--out and --run both name the folder/,
  );
  expect(readMergeOutDir(undefined, {})).toBe(join(WORK_DIR, 'reports', 'conformance'));
  expect(readMergeOutDir(undefined, { [ENV.outDir]: 'merged' })).toBe(join(WORK_DIR, 'merged'));
  expect(readMergeOutDir('given', { [ENV.outDir]: 'merged' })).toBe(join(WORK_DIR, 'given'));
});
