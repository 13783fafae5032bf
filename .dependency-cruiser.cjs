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
  '^(contracts|fixtures|foundation|engine|explore|matrix|scenarios|load|proof|image|bin|scripts)/|^[^/]+\\.(ts|mts|cts|js|mjs|cjs)$';

/** Node's built-in modules as they appear in the graph (depcruise drops the `node:` prefix). */
const NODE_BUILTIN = `^(node:)?(${builtinModules.join('|')})$`;

/** Any npm package except the declarations of k6 (which stand in for k6's runtime modules). */
const NPM_PACKAGE = '(^|/)node_modules/(?!@types/k6/)';

const PLAYWRIGHT = '(^|/)node_modules/(@playwright/test|playwright|playwright-core)/';

/** Code that runs inside k6: its module loader knows k6's own modules and plain files, nothing of Node or npm. */
const K6_CODE = '^(load/(main(-native)?\\.ts$|lib/|flows/|capacity/)|proof/bench/k6/)';

/**
 * Modules k6 code may import besides its own: the contract checks with their generated validators
 * (bundled into check.k6.js, also imported as source for their types), the pure environment rules, the
 * command lines hints name, the discovery role rules, and the report kit's escapers and JUnit renderer
 * (one per format in the tree).
 * They run in Node too, which makes them the place a Node-only import would slip into k6 unnoticed.
 */
const SHARED_WITH_K6 = [
  '^contracts/check\\.ts$',
  '^contracts/generated/',
  '^foundation/environment/rules\\.ts$',
  '^foundation/environment/command-line\\.ts$',
  '^core/discovery/roles\\.ts$',
  '^engine/after/report/escape\\.ts$',
  '^core/report/render/junit\\.ts$',
  '^core/discovery/trial\\.ts$',
];

/**
 * What k6 code may import: k6's modules (resolved to their declarations in @types/k6, or left
 * unresolved for modules @types/k6 does not describe), other k6 code and the shared pure modules.
 */
const K6_SAFE = ['^k6(/|$)', '(^|/)node_modules/@types/k6/', K6_CODE, ...SHARED_WITH_K6];

/**
 * A layer rule: the layer's code (its tests aside) may import, of the repository's code, only what
 * `allowed` names. Which npm packages and built-ins a layer may use is left to the runtime rules.
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

/**
 * The engine is a Y: two wings that never import each other, both standing on the evidence, joined at
 * the top by the runner. The live wing talks to a target while a run goes (the wire, what an answer
 * means, the client, finding workflows, following executions); the after wing reads what was written
 * (findings, the report kit). Within a wing each floor imports only the floors below it, lowest first.
 */
const EVIDENCE = [
  'evidence',
  'what is written while a run goes (exchange, check and observation records, the recorder of clause results, ' +
    'reproducers): both wings write or read it, so it depends on nothing of the engine',
];
const LIVE_WING = [
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
const AFTER_WING = [
  [
    'findings',
    "the run's verdict read back from the evidence (findings, requirements, waivers): it judges nothing anew " +
      'and sends nothing',
  ],
  ['report', 'the rendering kit: one renderer per format over the findings, one escaper per format'],
];
const RUNNER = [
  'runner',
  'the orchestration of a conformance run (Playwright, probe, outputs, history): where the two wings join',
];

/** One wing's floors: each may import the evidence and the floors below it in its own wing, never the other wing. */
function wingRules(wing, floors, other) {
  return floors.map(([floor, why], i) => {
    const below = floors.slice(0, i).map(([f]) => f);
    return importsOnly(
      `engine-${floor}-imports-only-lower-floors`,
      `engine/${wing}/${floor}/ is ${why}. It may import the evidence${
        below.length ? `, ${below.join(', ')} (below it in the ${wing} wing)` : ''
      }, contracts and foundation; never a floor above it, the ${other} wing, the runner, the suites, explore, ` +
        'load or the proof.',
      `^engine/${wing}/${floor}/`,
      [
        '^contracts/',
        '^foundation/',
        '^core/evidence/',
        ...floors.slice(0, i + 1).map(([f]) => `^engine/${wing}/${f}/`),
      ],
    );
  });
}

function engineRules() {
  return [
    importsOnly(
      'engine-evidence-imports-only-lower-floors',
      `core/evidence/ is ${EVIDENCE[1]}. It may import contracts and foundation only.`,
      '^core/evidence/',
      ['^contracts/', '^foundation/', '^core/evidence/'],
    ),
    ...wingRules('live', LIVE_WING, 'after'),
    ...wingRules('after', AFTER_WING, 'live'),
    importsOnly(
      'engine-runner-imports-only-lower-floors',
      `scenarios/run/ is ${RUNNER[1]}: it may import both wings, the evidence, contracts and foundation; ` +
        'never the suites, explore, load or the proof.',
      '^scenarios/run/',
      ['^contracts/', '^foundation/', '^engine/'],
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
    importsOnly(
      'environment-imports-only-lower-layers',
      'foundation/environment/ (configuration, target resolution, redaction) is shared by every command; ' +
        'it sits below scenarios/ and load/, so it may use contracts, data and the target (to boot it), ' +
        'never a consumer of itself.',
      '^foundation/environment/',
      ['^contracts/', '^core/data/', '^fixtures/reference/', '^foundation/environment/'],
    ),
    importsOnly(
      'history-imports-only-lower-layers',
      'core/history-store/ (the run store, its migrations, queries and diff) is shared by the conformance ' +
        'run and the load run, which both record into it; it sits below both, so it may use only the ' +
        'contracts and the environment, never the suites, the load runner, the proof or a command.',
      '^core/history-store/',
      ['^contracts/', '^foundation/environment/', '^core/history-store/'],
    ),
    ...engineRules(),
    importsOnly(
      'suites-stand-on-the-engine',
      'scenarios/ holds the suites and their Playwright fixtures alone: they reach a target only through ' +
        "the engine's client (BASE_URL or the booted reference target), so that they test every " +
        "implementation alike; never the load runner, the proof drivers, explore, the reference target's " +
        'internals, or the engine runner that starts them.',
      '^scenarios/',
      ['^contracts/', '^foundation/', '^engine/(?!runner/)', '^scenarios/'],
    ),
    importsOnly(
      'explore-stands-on-the-engine',
      'explore/ is a third way of exercising a target beside the suites and load: it produces exchanges and ' +
        'the engine judges them, so it may use the engine below its runner, contracts and foundation; never ' +
        'the suites, load, the proof or the reference target.',
      '^explore/',
      ['^contracts/', '^foundation/', '^engine/(?!runner/)', '^explore/'],
    ),
    importsOnly(
      'matrix-builds-from-the-history',
      'matrix/ builds the implementation matrix (a static site) from the run history alone: it reads the ' +
        'history, the requirement catalogue and the specification, never a target, so it may use foundation ' +
        "and contracts (and the report kit's escaper); never the engine that runs and judges, the suites, " +
        'explore, load, the proof or a double, so that a site can be built anywhere a history is.',
      '^matrix/',
      ['^matrix/', '^foundation/', '^contracts/', '^engine/after/report/escape'],
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
        'contracts/check.ts with the generated validators, the pure environment rules, the discovery role rules and ' +
        "trial protocol, and the report kit's escapers and JUnit renderer; npm packages " +
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
    importsOnly(
      'load-node-imports-only-lower-layers',
      'load/node/ orchestrates k6 from Node: it may use the k6 library (profiles, thresholds, report ' +
        'shapes, the capacity search of load/capacity/), contracts, data and the environment, and of the engine its discovery rules and report kit. It reaches a target through foundation/environment, ' +
        'as the conformance run does, so that both resolve and boot it alike; and the load run must not ' +
        'depend on the conformance suites or on the proof drivers.',
      '^load/node/',
      ['^load/(lib|node|capacity)/', '^contracts/', '^foundation/', '^engine/(live/discovery|after/report)/'],
    ),
    {
      name: 'playwright-only-in-suites-and-tests',
      severity: 'error',
      comment:
        '@playwright/test is the runner of the conformance suites and of the harness tests; anything ' +
        'else importing it (the verdict engine, the run orchestration, load, the target, commands) could ' +
        'only run inside a Playwright worker, and could not be reused by a command or by k6.',
      from: {
        pathNot: ['^scenarios/(fixtures\\.ts$|.+\\.spec\\.ts$)', TEST, '^playwright\\.config\\.ts$'],
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
