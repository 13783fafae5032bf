/**
 * Every setting is read through one reader: in Node, the settings modules of core/settings/ and one
 * settings.ts per mode (the only modules that touch `process.env`); in k6, load/k6/lib/config.ts (the only module of the suite that touches `__ENV`;
 * the benchmark's k6 scripts have proof/bench/k6/settings.ts).
 *
 * The source tree is parsed, not searched as text, so a comment or a string naming `process.env` is
 * not a read. Tests are left out: they set the environment of the processes they start.
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from './roots.ts';

/** The Node side's readers, one per mode (and what every mode shares): each reads only its own settings. */
const NODE_READERS: Record<string, string> = {
  'core/settings/target-settings.ts': 'the target every mode drives (BASE_URL, API_KEY, API_KEY_B) and its keys',
  'core/settings/run-config.ts': "`wfcheck conformance`'s settings and those the suites read in every worker",
  'explore/settings.ts': "`wfcheck explore`'s settings",
  'load/settings.ts': "the load run's settings, where its k6 is, and the k6 scripts' settings handed on unparsed",
  'core/settings/history-settings.ts': 'the run history and the implementation a run is recorded under (the matrix)',
  'proof/bench/settings.ts': "the benchmarks' settings",
  'core/settings/invocation.ts':
    'how the harness was started (WFCHECK_INVOKED_AS), for the command lines its hints print',
  'core/settings/child-environment.ts': 'what a child process inherits, passed on unread',
  'core/settings/connection-settings.ts':
    'the way to the target in every mode: the CA, the client certificate and its passphrase, --insecure, the proxies',
};

/** Where the environment may be read, and why. */
const READERS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(NODE_READERS).map(([module, what]) => [module, `the Node reader of ${what}`])),
  'load/k6/lib/config.ts': "the k6 scripts' reader: every name of K6_SCRIPT_ENV, nothing else",
  'proof/bench/k6/settings.ts':
    "the benchmark's k6 scripts' reader (bare loops, check cost): their own settings, which the suite's " +
    'reader refuses, read by the same rules',
  'scripts/bootstrap.mjs':
    'runs before the dependencies are installed, so it cannot import the reader; it hands the whole ' +
    'environment on to the command it starts (with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD)',
  'bin/wfcheck.mjs':
    'the `wfcheck` command runs before TypeScript is loaded, so it cannot import the reader; it hands the whole ' +
    'environment on to the subcommand it starts, adding the TypeScript loader to NODE_OPTIONS',
  'action/prepare.mjs':
    "the GitHub Action's first step runs before the harness is installed: it reads the runner's own " +
    'variables (inputs, GITHUB_OUTPUT, RUNNER_TEMP), never a setting of the harness',
  'action/verdict.mjs':
    "the GitHub Action's summary step reads the runner's own variables (GITHUB_STEP_SUMMARY, " +
    'GITHUB_OUTPUT) to write the verdict; it runs without the harness loaded',
  'fixtures/independent/launch.ts':
    'starts an implementation of the specification written apart from the harness, a separate product ' +
    'with settings of its own (WF_KEY_A, WF_KEY_B): it hands the environment on to that process with its ' +
    'keys added, and reads no setting of the harness',
  'fixtures/deployment/reverse-proxy.ts':
    "a fixture of the harness's own tests: WFCHECK_TEST_NGINX=off asks for its Node stand-in on a machine " +
    'that has nginx; it reads no setting of the harness',
  'playwright.config.ts':
    "CI is the test runner's own convention (forbid .only, write the JSON report), read by Playwright " +
    'before any code of the harness',
};

/**
 * Reads not yet moved behind the reader, in modules this rule does not reach yet. Each names what it
 * reads and the reader it should use; an entry whose file no longer reads the environment fails below,
 * so the list only shrinks.
 */
const NOT_YET_MOVED: Record<string, string> = {};

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const TEST_FILE = /\.test(kit)?\.ts$/;
const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'reports', 'test-results']);
/**
 * Separate products keep their own readers: the reference target (fixtures/reference/config.ts), and the
 * implementations written apart from the harness (fixtures/independent/: each reads its own settings).
 */
const OTHER_PRODUCTS = new Set(['fixtures/reference', 'fixtures/independent/nest']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const skipped =
        entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name) || OTHER_PRODUCTS.has(relative(PACKAGE_ROOT, path));
      return skipped ? [] : sources(path);
    }
    return SOURCE.test(entry.name) && !TEST_FILE.test(entry.name) ? [relative(PACKAGE_ROOT, path)] : [];
  });
}

const isProcess = (node: ts.Node) => ts.isIdentifier(node) && node.text === 'process';

/** Lines of a source that read the environment: `process.env`, `process['env']`, `{ env } = process`, `__ENV`. */
function environmentReads(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    const read =
      (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && node.name.text === 'env') ||
      (ts.isElementAccessExpression(node) &&
        isProcess(node.expression) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        node.argumentExpression.text === 'env') ||
      (ts.isVariableDeclaration(node) &&
        node.initializer !== undefined &&
        isProcess(node.initializer) &&
        ts.isObjectBindingPattern(node.name)) ||
      (ts.isIdentifier(node) && node.text === '__ENV');
    if (read) lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

test('the reader finds every way of reading the environment, and not a mention of it', () => {
  const code = [
    'const a = process.env.A;',
    "const b = process['env'];",
    'const { env } = process;',
    'const c = __ENV.C;',
    '// process.env.D in a comment',
    "const e = 'process.env.E in a string';",
  ].join('\n');
  expect(environmentReads('x.ts', code)).toEqual([1, 2, 3, 4]);
});

test('the environment is read only by the readers', () => {
  const reads = new Map<string, number[]>();
  for (const file of sources(PACKAGE_ROOT)) {
    const lines = environmentReads(file, readFileSync(join(PACKAGE_ROOT, file), 'utf8'));
    if (lines.length > 0) reads.set(file, lines);
  }
  const outside = [...reads]
    .filter(([file]) => !(file in READERS) && !(file in NOT_YET_MOVED))
    .map(([file, lines]) => `${file}:${lines.join(',')}`);
  expect(
    outside,
    "read through a settings module (Node: core/settings/ or a mode's settings.ts) or load/k6/lib/config.ts (k6)",
  ).toEqual([]);
  const moved = Object.keys(NOT_YET_MOVED).filter((file) => !reads.has(file));
  expect(moved, 'no longer reads the environment: remove it from NOT_YET_MOVED').toEqual([]);
  for (const reader of [...Object.keys(NODE_READERS), 'load/k6/lib/config.ts'])
    expect(reads.has(reader), `${reader} is the reader`).toBe(true);
});
