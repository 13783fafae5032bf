/**
 * The layering holds: `npm run lint:layers` (dependency-cruiser with .dependency-cruiser.cjs) finds no
 * import going the wrong way. A rule that cannot fail proves nothing, so the same configuration is
 * also run over fixtures/layers/, a miniature of the layout with one offender per rule, and must report
 * exactly those offenders: no rule is blind, and none fires on the imports the layers allow.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const configFile = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const fixture = join(root, 'fixtures', 'layers');

interface Rule {
  name: string;
  comment?: string;
}
interface Violation {
  type: string;
  from: string;
  to: string;
  rule: { name: string; severity: string };
  via?: { name: string }[];
  cycle?: { name: string }[];
}
interface CruiseResult {
  modules: { source: string }[];
  summary: { violations: Violation[] };
}

const rules: Rule[] = (createRequire(import.meta.url)(configFile) as { forbidden: Rule[] }).forbidden;

function cruise(cwd: string, args: string[]): CruiseResult {
  const run = spawnSync(process.execPath, [depcruise, ...args, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // The json reporter exits 0 even with violations; anything else (or no JSON) means the cruise itself failed.
  if (run.status !== 0 || !run.stdout.trim().startsWith('{')) {
    throw new Error(
      `depcruise ${args.join(' ')} failed (exit ${run.status}):\n${run.stderr}${run.stdout.slice(0, 2000)}`,
    );
  }
  return JSON.parse(run.stdout) as CruiseResult;
}

/** An npm module as its package name, wherever node_modules sits (the fixture resolves them a few folders up). */
function shortName(path: string): string {
  return path.replace(/^(?:\.\.\/)*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1');
}

/** One line per violation, `rule: from → to`, with the chain for a transitive one. */
function asLine(v: Violation): string {
  const chain =
    v.type === 'reachability' && v.via && v.via.length > 1
      ? ` (via ${v.via
          .slice(0, -1)
          .map((m) => m.name)
          .join(' → ')})`
      : '';
  return `${v.rule.name}: ${v.from} → ${shortName(v.to)}${chain}`;
}

test('npm run lint:layers finds no import going the wrong way', () => {
  // Run what the npm script runs, so the script and this test cannot drift apart.
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts['lint:layers'];
  const [command, ...args] = (script ?? '').trim().split(/\s+/);
  expect(command, 'lint:layers runs depcruise').toBe('depcruise');

  const result = cruise(root, args);

  // An exclude or a folder list gone wrong would pass vacuously: every layer must have been cruised.
  for (const layer of [
    'contracts/',
    'fixtures/faults/',
    'fixtures/reference/',
    'core/settings/',
    'core/data/',
    'core/connection/',
    'core/outputs/',
    'core/history-store/',
    'core/evidence/',
    'core/transport/',
    'core/judging/',
    'core/client/',
    'core/discovery/',
    'core/execution/',
    'core/findings/',
    'core/report/',
    'scenarios/',
    'scenarios/run/',
    'scenarios/report/',
    'explore/',
    'history/',
    'matrix/',
    'load/k6/lib/',
    'load/node/',
    'load/capacity/k6/',
    'proof/',
    'proof/bench/k6/',
    'scripts/',
  ]) {
    expect(
      result.modules.some((m) => m.source.startsWith(layer)),
      `${layer} was cruised`,
    ).toBe(true);
  }
  expect(
    result.modules.some((m) => m.source.startsWith('fixtures/layers/')),
    'the offending fixture is left out',
  ).toBe(false);

  const why = new Map(rules.map((r) => [r.name, r.comment ?? '']));
  const report = result.summary.violations.map((v) => `${asLine(v)}\n    why: ${why.get(v.rule.name) ?? ''}`);
  expect(
    report.length,
    `imports going the wrong way (see .dependency-cruiser.cjs and the README's Layout):\n${report.join('\n')}\n`,
  ).toBe(0);
});

test('every layer rule fires on its offender in fixtures/layers/, and only there', () => {
  // Cruised from inside the fixture, its paths read as the repository's do (contracts/…, load/k6/lib/…).
  const result = cruise(fixture, [
    '--config',
    configFile,
    'contracts',
    'fixtures',
    'core',
    'explore',
    'history',
    'matrix',
    'scenarios',
    'load',
    'proof',
    'scripts',
  ]);
  const found = result.summary.violations.map(asLine).sort();

  expect(found).toEqual(
    [
      'conformance-stands-on-the-core: scenarios/helpers.ts → fixtures/reference/server.ts',
      'conformance-stands-on-the-core: scenarios/run/up.ts → explore/send/session.ts',
      'contracts-imports-only-contracts: contracts/requirements.ts → scenarios/suite.ts',
      'core-client-imports-only-what-comes-before: core/client/up.ts → core/discovery/roles.ts',
      'core-connection-imports-only-the-ground: core/connection/up.ts → core/transport/leaf.ts',
      'core-discovery-imports-only-what-comes-before: core/discovery/up.ts → core/execution/leaf.ts',
      'core-evidence-imports-only-the-ground: core/evidence/up.ts → core/transport/leaf.ts',
      'core-execution-imports-only-what-comes-before: core/execution/up.ts → core/findings/leaf.ts',
      'core-findings-imports-only-what-comes-before: core/findings/crossing.ts → core/client/leaf.ts',
      'core-findings-imports-only-what-comes-before: core/findings/up.ts → core/report/leaf.ts',
      'core-history-store-imports-only-the-ground: core/history-store/store.ts → core/findings/leaf.ts',
      'core-imports-only-core: core/settings/target.ts → fixtures/reference/boot/boot.ts',
      'core-judging-imports-only-what-comes-before: core/judging/up.ts → core/client/leaf.ts',
      'core-outputs-imports-only-the-ground: core/outputs/up.ts → core/evidence/leaf.ts',
      'core-report-imports-only-what-comes-before: core/report/up.ts → core/execution/leaf.ts',
      'core-settings-imports-only-the-ground: core/settings/target.ts → fixtures/reference/boot/boot.ts',
      'core-transport-imports-only-what-comes-before: core/transport/up.ts → core/judging/leaf.ts',
      'data-imports-only-data: core/data/build.ts → core/settings/rules.ts',
      'data-imports-only-data: core/data/build.ts → yaml',
      'explore-stands-on-the-core: explore/send/session.ts → scenarios/suite.ts',
      'fixtures-import-only-contracts: fixtures/faults/proxy.ts → scenarios/suite.ts',
      'history-stands-on-the-core: history/import.ts → scenarios/run/leaf.ts',
      'k6-imports-only-k6-safe-code: load/k6/flows/mix.ts → load/node/run.ts',
      'k6-imports-only-k6-safe-code: load/k6/lib/ui.ts → @playwright/test',
      'k6-no-node-builtins: load/k6/lib/io.ts → fs',
      'k6-shared-modules-stay-pure: contracts/check.ts → crypto (via contracts/error-codes.ts)',
      'k6-shared-modules-stay-pure: core/settings/rules.ts → os',
      'load-stands-on-the-core: load/node/run.ts → scenarios/suite.ts',
      'matrix-builds-from-the-history: matrix/site.ts → core/judging/leaf.ts',
      'no-circular: core/data/cycle-a.ts → core/data/cycle-b.ts',
      'not-to-unresolvable: proof/driver.ts → ./missing.ts',
      'nothing-imports-scripts: proof/driver.ts → scripts/cli.ts',
      'nothing-imports-scripts: scripts/cli.ts → scripts/other.ts',
      'playwright-only-in-suites-and-tests: core/findings/report.ts → @playwright/test',
      'playwright-only-in-suites-and-tests: load/k6/lib/ui.ts → @playwright/test',
      'suites-do-not-start-runs: scenarios/helpers.ts → fixtures/reference/server.ts',
      'suites-do-not-start-runs: scenarios/helpers.ts → scenarios/run/leaf.ts',
      'target-does-not-import-the-harness: fixtures/reference/server.ts → scenarios/suite.ts',
    ].sort(),
  );

  // A rule added to the configuration needs an offender here, or it is never shown to work.
  const fired = new Set(result.summary.violations.map((v) => v.rule.name));
  expect(
    rules.map((r) => r.name).filter((name) => !fired.has(name)),
    'rules without an offender in fixtures/layers/',
  ).toEqual([]);
});
