/**
 * The layering of wfcheck, as dependency rules (`npm run lint:layers`, and `npm test` through
 * proof/layers.test.ts). The README's "Layout" section draws the same layers; docs/layout.md lists them.
 *
 * Paths are matched relative to the folder depcruise runs from, so the rules hold both for the
 * repository and for fixtures/layers/, the small tree of offenders that proves each rule
 * can fire. npm packages are matched wherever node_modules sits (the fixture tree resolves them from
 * the repository's node_modules, a few folders up).
 */
const { join } = require('node:path');
const { builtinModules } = require('node:module');

/**
 * Test files, and the kits only tests use (`*.testkit.ts`), may cross layers (a test of the load runner
 * may boot the reference target); never into scripts/.
 */
const TEST = '\\.test(kit)?\\.ts$';

/** Repository code a layer rule speaks about; npm packages and Node built-ins are outside it. */
const REPO =
  '^(contracts|fixtures|core|explore|history|matrix|scenarios|load|proof|image|bin|scripts)/|^[^/]+\\.(ts|mts|cts|js|mjs|cjs)$';

/** Node's built-in modules as they appear in the graph (depcruise drops the `node:` prefix). */
const NODE_BUILTIN = `^(node:)?(${builtinModules.join('|')})$`;

/** Any npm package except the declarations of k6 (which stand in for k6's runtime modules). */
const NPM_PACKAGE = '(^|/)node_modules/(?!@types/k6/)';

const PLAYWRIGHT = '(^|/)node_modules/(@playwright/test|playwright|playwright-core)/';

/** Code that runs inside k6: its module loader knows k6's own modules and plain files, nothing of Node or npm. */
const K6_CODE = '^(load/k6/|load/capacity/k6/|proof/bench/k6/)';

/**
 * Modules k6 code may import besides its own: the contract checks with their generated validators
 * (bundled into check.k6.js, also imported as source for their types), the pure setting rules, the
 * command lines hints name, the discovery role rules and trial protocol, the report kit's escapers and
 * JUnit renderer, and the capacity search's plan, gates, figures and settings.
 * They run in Node too, which makes them the place a Node-only import would slip into k6 unnoticed.
 */
const SHARED_WITH_K6 = [
  '^contracts/check\\.ts$',
  '^contracts/operation-facts\\.ts$',
  '^contracts/generated/',
  '^core/settings/rules\\.ts$',
  '^core/settings/command-line\\.ts$',
  '^core/discovery/roles\\.ts$',
  '^core/discovery/trial\\.ts$',
  '^core/report/escape\\.ts$',
  '^core/report/render/junit\\.ts$',
  '^load/capacity/(plan|gates|figures|settings)\\.ts$',
];

/**
 * What k6 code may import: k6's modules (resolved to their declarations in @types/k6, or left
 * unresolved for modules @types/k6 does not describe), other k6 code and the shared pure modules.
 */
const K6_SAFE = ['^k6(/|$)', '(^|/)node_modules/@types/k6/', K6_CODE, ...SHARED_WITH_K6];

/**
 * A layer rule: the layer's code (its tests aside) may import, of the repository's code, only what
 * `allowed` names. Which npm packages and built-ins a layer may use is left to the runtime rules.
 * Dynamic imports (`await import('…')`) are imports like the others: the rules see them.
 */
function importsOnly(name, comment, layer, allowed) {
  return {
    name,
    severity: 'error',
    comment,
    from: { path: layer, pathNot: TEST },
    to: { path: REPO, pathNot: allowed },
  };
}

/** A folder of core/ by its name, for the allowed lists. */
const core = (...folders) => folders.map((f) => `^core/${f}/`);

/** What every part of the core may stand on: the contract, the settings, the seeded data. */
const CORE_GROUND = ['^contracts/', ...core('settings', 'data')];

/**
 * The core's folders that take part in sending requests and judging the answers while a run goes, in
 * order: each may import the ones before it (and the ground, the connection and the evidence), never
 * one after it nor the folders that read a run afterwards.
 */
const SENDING = [
  [
    'transport',
    'the wire: requests prepared, sent under one deadline with a size cap, faults classified and remembered ' +
      'for the run; it knows nothing of what an answer means, so any mode can send through it',
  ],
  [
    'judging',
    'what an answer means for a clause (contract checks on every answer, status and acceptance clauses, ' +
      'relations across answers): one judge per clause, whatever sent the request, so it needs no client',
  ],
  ['client', 'the contract-checked client: transport, judging and evidence put together for the eight operations'],
  [
    'discovery',
    'finding what a target holds (workflows, their roles, the listing): built on the client, below what uses ' +
      'the workflows it finds',
  ],
  ['execution', 'runs started and followed across polls (runs, polling): they use discovered workflows'],
];

/** The core's folders that read a run afterwards, in order; they never send a request. */
const READING = [
  [
    'findings',
    "the run's verdict read back from the evidence (findings, requirements, waivers, the history's record of " +
      'it): it judges nothing anew and sends nothing',
  ],
  ['report', 'the rendering kit: one renderer per format over the findings, one escaper per format'],
];

/** One sequence's folders: each may import those before it in the sequence, never after it, nor the other sequence. */
function sequenceRules(sequence, below, what, other) {
  return sequence.map(([folder, why], i) => {
    const before = sequence.slice(0, i).map(([f]) => f);
    return importsOnly(
      `core-${folder}-imports-only-what-comes-before`,
      `core/${folder}/ is ${why}. It may import ${[...below, ...before].join(', ')} of the core, and contracts; ` +
        `never a folder after it in ${what}, ${other}, a mode or a fixture.`,
      `^core/${folder}/`,
      [...CORE_GROUND, ...core(...below, ...sequence.slice(0, i + 1).map(([f]) => f))],
    );
  });
}

/** A mode: one folder holding its orchestration, settings and report views, standing on the core alone. */
function modeRule(mode, folder, what) {
  return importsOnly(
    `${mode}-stands-on-the-core`,
    `${folder}/ is ${what}. A mode imports the contracts, the core and itself; never another mode, the ` +
      'reference target or a fixture, the proof or a command: the command that needs a target hands in its booter.',
    `^${folder}/`,
    ['^contracts/', '^core/', `^${folder}/`],
  );
}

function coreRules() {
  return [
    importsOnly(
      'core-imports-only-core',
      'core/ is shared by every mode (conformance, explore, load, capacity, matrix, history) and imports none of ' +
        'them, nor a fixture (the reference target is handed in by the command that boots it), the proof or a command.',
      '^core/',
      ['^contracts/', '^core/'],
    ),
    importsOnly(
      'core-settings-imports-only-the-ground',
      'core/settings/ reads the settings of every command (the environment, the command line, the target, the ' +
        'way to it) and its pure rules: every other part of the core stands on it, so it may use only contracts and ' +
        'the seeded data.',
      '^core/settings/',
      CORE_GROUND,
    ),
    importsOnly(
      'core-connection-imports-only-the-ground',
      'core/connection/ is the way to the target (trust, client certificate, proxy tunnel, what a connection ' +
        'showed): below the wire, so it may use only the settings, data and contracts.',
      '^core/connection/',
      [...CORE_GROUND, ...core('connection')],
    ),
    importsOnly(
      'core-outputs-imports-only-the-ground',
      "core/outputs/ is a run's own folder (its lock, its manifest, the key scrub of what it wrote): every mode " +
        'writes through it, so it may use only the settings, data and contracts.',
      '^core/outputs/',
      [...CORE_GROUND, ...core('outputs')],
    ),
    importsOnly(
      'core-history-store-imports-only-the-ground',
      'core/history-store/ (the run store, its migrations, queries and diff) is recorded into by every mode ' +
        'and read by the matrix: it may use only the settings, data and contracts.',
      '^core/history-store/',
      [...CORE_GROUND, ...core('history-store')],
    ),
    importsOnly(
      'core-evidence-imports-only-the-ground',
      'core/evidence/ is what is written while a run goes (exchange, check and observation records, the recorder ' +
        'of clause results, reproducers): what sends writes it and what reads a run reads it, so it may use only ' +
        'the settings, data, connection and contracts.',
      '^core/evidence/',
      [...CORE_GROUND, ...core('connection', 'evidence')],
    ),
    ...sequenceRules(SENDING, ['connection', 'evidence'], 'sending and judging', 'the folders that read a run'),
    ...sequenceRules(
      READING,
      ['connection', 'evidence', 'history-store'],
      'reading a run',
      'the folders that send and judge',
    ),
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'nothing-imports-scripts',
      severity: 'error',
      comment:
        'scripts/ holds command entry points only: importing one runs its top-level command (argument ' +
        'parsing, process.exit). Shared logic lives in the layer it belongs to, so that every command ' +
        'and test can reuse it without starting another command.',
      from: {},
      to: { path: '^scripts/' },
    },
    importsOnly(
      'contracts-imports-only-contracts',
      'contracts/ is the bottom layer: every other layer checks responses through it, so it cannot ' +
        'depend on any of them; an import upwards would also drag harness code into the k6 bundle.',
      '^contracts/',
      ['^contracts/'],
    ),
    {
      name: 'data-imports-only-data',
      severity: 'error',
      comment:
        'core/data/ builds the seeded data that both the conformance suites and the load data ' +
        'preparation use; it depends only on itself and faker so that either can use it without the other.',
      from: { path: '^core/data/', pathNot: TEST },
      to: { path: [REPO, NPM_PACKAGE], pathNot: ['^core/data/', '(^|/)node_modules/@faker-js/faker/'] },
    },
    importsOnly(
      'fixtures-import-only-contracts',
      'fixtures/ beside the reference target holds what the proof runs the harness against (the mutating ' +
        'proxy with its fault catalogue, hostile servers, the launcher of the implementations written apart): ' +
        'they speak the contract and nothing else, so that a fixture cannot lean on the harness it is meant to ' +
        'catch out, nor on the reference target it stands in front of.',
      '^fixtures/(?!reference/)',
      ['^fixtures/(?!reference/)', '^contracts/'],
    ),
    importsOnly(
      'target-does-not-import-the-harness',
      'fixtures/reference/ is a product the harness tests, shipped as its own image: it may use the ' +
        'contracts it implements, but if it imported the harness (scenarios, load, environment, proof, ' +
        'data) the harness would partly be testing itself, and the image would carry harness code.',
      '^fixtures/reference/',
      ['^fixtures/reference/', '^contracts/'],
    ),
    ...coreRules(),
    modeRule(
      'conformance',
      'scenarios',
      'the conformance mode: the suites, their Playwright fixtures, the run that starts them and its report views',
    ),
    importsOnly(
      'suites-do-not-start-runs',
      "The suites (scenarios/ outside run/ and report/) reach a target only through the core's client " +
        '(BASE_URL or the booted reference target), so that they test every implementation alike; the run that ' +
        'starts them and the report made after them are not theirs to use.',
      '^scenarios/(?!run/|report/)',
      ['^contracts/', '^core/', '^scenarios/(?!run/|report/)'],
    ),
    modeRule('explore', 'explore', 'the explore mode: it produces exchanges (generate, send) and the core judges them'),
    modeRule(
      'load',
      'load',
      'the load mode and its capacity search: k6 scripts, the Node side that runs them, their settings and reports',
    ),
    importsOnly(
      'matrix-builds-from-the-history',
      'matrix/ builds the implementation matrix (a static site) from the run history alone: it reads the ' +
        'history, the requirement catalogue and the specification, never a target, so it may use the settings, ' +
        "outputs, history store and report kit of the core and the contracts; never the core's sending and " +
        'judging, another mode, the proof or a fixture, so that a site can be built anywhere a history is.',
      '^matrix/',
      ['^matrix/', '^contracts/', ...core('settings', 'data', 'outputs', 'history-store', 'findings', 'report')],
    ),
    modeRule(
      'history',
      'history',
      'the history mode: the run history read back, and a report made elsewhere imported into it',
    ),
    {
      name: 'k6-no-node-builtins',
      severity: 'error',
      comment:
        'k6 runs JavaScript in its own runtime, not Node: an import of a Node built-in fails only when ' +
        'k6 loads the script, long after type-checking passed.',
      from: { path: K6_CODE, pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'k6-imports-only-k6-safe-code',
      severity: 'error',
      comment:
        'k6 loads only its own modules and plain files: k6 code may import k6, other k6 code, ' +
        'contracts/check.ts with the generated validators, the pure setting rules, the discovery role rules and ' +
        "trial protocol, the report kit's escapers and JUnit renderer and the capacity search's pure modules; npm packages " +
        '(Playwright included) and Node-only harness code would fail inside k6.',
      from: { path: K6_CODE, pathNot: TEST },
      to: { pathNot: K6_SAFE, dependencyTypesNot: ['core'] },
    },
    {
      name: 'k6-shared-modules-stay-pure',
      severity: 'error',
      comment:
        'contracts/check.ts (with the requirement and error-code tables and the generated validators it ' +
        'loads), core/settings/rules.ts and the discovery role rules and trial protocol ' +
        '(core/discovery/roles.ts, trial.ts) run in Node and inside k6, and k6 loads everything ' +
        'they reach, not only their direct imports: nothing they reach may be a Node built-in or an npm ' +
        'package. Declaration files are exempt: their imports are type-only and never loaded.',
      from: { path: SHARED_WITH_K6, pathNot: '\\.d\\.ts$' },
      to: { path: [NODE_BUILTIN, NPM_PACKAGE], reachable: true },
    },
    {
      name: 'playwright-only-in-suites-and-tests',
      severity: 'error',
      comment:
        '@playwright/test is the runner of the conformance suites and of the harness tests; anything ' +
        'else importing it (the core, the run orchestration, load, the target, commands) could ' +
        'only run inside a Playwright worker, and could not be reused by a command or by k6.',
      from: {
        pathNot: ['^scenarios/(suite\\.ts$|.+\\.spec\\.ts$)', TEST, '^playwright\\.config\\.ts$'],
      },
      to: { path: PLAYWRIGHT },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle makes module initialisation order matter (a value read before its module ran) and ties ' +
        'modules together so that neither can be used, or moved to its layer, without the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import depcruise cannot resolve escapes every rule above; k6 modules are the one kind ' +
        'resolved only at run time, by k6 itself.',
      from: {},
      to: { couldNotResolve: true, pathNot: '^k6(/|$)' },
    },
  ],
  options: {
    // npm packages are endpoints of the graph: their own imports are not this repository's layering.
    doNotFollow: { path: 'node_modules' },
    // The offenders that prove the rules fire (the test cruises them on their own, from their folder), and
    // an implementation written apart from the harness (an npm project of its own).
    exclude: { path: '^(fixtures/layers/|fixtures/independent/nest/)' },
    // Type-only imports count: a type imported the wrong way still ties a layer to a consumer.
    tsPreCompilationDeps: true,
    // Absolute, so that the fixture tree (cruised from its own folder) resolves as the repository does.
    tsConfig: { fileName: join(__dirname, 'tsconfig.json') },
    // Resolve packages as Node and TypeScript do (package.json "exports"), e.g. @faker-js/faker/locale/en.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
