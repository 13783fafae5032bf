/**
 * The catalogues and generated artefacts stay faithful to the specification and to each other:
 * every schema clause and spec statement has an ID, the §7 table is transcribed exactly, the OpenAPI
 * document lints clean, the generated files are fresh, and the k6 bundle agrees with the checking API.
 */
import { test, expect } from '@playwright/test';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { REQUIREMENTS, requirement, hasRequirement } from './requirements.ts';
import { ERROR_CODES } from './error-codes.ts';
import { checkResponse, type ResponseUnderCheck } from './check.ts';
import { OPERATIONS, OPERATION_IDS } from './generated/operations.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const spec = readFileSync(join(here, 'spec', 'service-api.md'), 'utf8');
const openapi = YAML.parse(readFileSync(join(here, 'openapi.yaml'), 'utf8'));

test('the vendored specification is the shared one, when the shared copy is present', () => {
  const shared = resolve(root, '..', 'shared', 'spec', 'service-api.md');
  test.skip(!existsSync(shared), 'no shared/spec beside the repository');
  expect(readFileSync(shared, 'utf8')).toBe(spec);
});

test('requirement IDs are unique, well-formed, and should-clauses give their reasoning', () => {
  const ids = REQUIREMENTS.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const r of REQUIREMENTS) {
    expect(r.id).toMatch(/^[A-Z0-9]+(-[A-Z0-9]+)*$/);
    expect(r.text.length).toBeGreaterThan(10);
    expect(r.section).toBeTruthy();
    if (r.level === 'should') expect(r.why, r.id).toBeTruthy();
  }
  expect(() => requirement('NO-SUCH-CLAUSE')).toThrow(/unknown requirement/);
});

test('every requirement quotes the specification word for word, and its level follows from those words', () => {
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  const specText = flat(spec);
  for (const r of REQUIREMENTS) {
    expect(specText.includes(flat(r.quote)), `${r.id} quotes "${r.quote}", which service-api.md does not contain`).toBe(
      true,
    );
    // "not shown" is the specification leaving a point open: such a clause can only be observed.
    if (/not shown/.test(r.quote) && !/Transitions: not shown/.test(r.quote)) expect(r.level, r.id).toBe('observe');
  }
});

test("the levels the specification settles are the catalogue's", () => {
  const levels = Object.fromEntries(REQUIREMENTS.map((r) => [r.id, r.level]));
  expect(levels).toMatchObject({
    // §4.5: "keyword searched in workflow titles": a keyword that is ignored altogether breaks it
    'SEARCH-KEYWORD-APPLIED': 'must',
    // §4.8: "the existing workflow on it is replaced"
    'GENERATE-OVERWRITE-REPLACES': 'must',
    // §7: six codes carry an HTTP status
    'ERROR-CODE-STATUS-CONSISTENT': 'must',
    // §4.8: a 400 also means "generation failed", allowed for any request
    'GENERATE-LOCALES': 'should',
    // §8: which operations the limits apply to is "stated only by the codes themselves"
    'LIMIT-OPERATIONS': 'observe',
    // §3: transitions are not shown; only the end states are fixed by their meaning
    'STATE-EXEC-FORWARD-ONLY': 'observe',
    'STATE-NODE-FORWARD-ONLY': 'observe',
    'STATE-TERMINAL': 'should',
    // §5.2: "The key must be kept secret" is said to the holder; of answers it follows from its meaning
    'KEY-NOT-ECHOED': 'should',
    // §4.1 lists the kinds values take; whether a typed or untyped variable takes every kind is open to two readings
    'RUN-VALUE-KINDS': 'should',
    // "string, date-time": ISO 8601 allows a local time without offset; RFC 3339 (the format's name) does not
    'DATETIME-FORMAT': 'must',
    'DATETIME-OFFSET': 'should',
    // §5.1 describes what a client sends; what a server makes of "bearer" or two spaces is its own choice
    'AUTH-SCHEME-SPELLING': 'observe',
    // §4.3 "output nodes" are never defined (no field of a plan marks one): every node or only some
    'OUTPUT-NODES-LISTED': 'observe',
    // §2.3 a "file access URL" is none of the §4 endpoints that require the key header
    'OUTPUT-FILE-URL-KEY': 'observe',
    // §4.1 "each key is a workflow variable name" says what keys are, not what another key gets
    'RUN-UNDECLARED-VARIABLES': 'observe',
  });
  const security = REQUIREMENTS.filter((r) => r.security)
    .map((r) => r.id)
    .sort();
  expect(security).toEqual([
    'AUTH-NOT-SERVED-WITHOUT-KEY',
    'ISOLATION-CANVAS',
    'ISOLATION-EXECUTION',
    'ISOLATION-FILE-KEY',
    'KEY-NOT-ECHOED',
    'SEARCH-TENANT-SCOPED',
  ]);
});

test('every x-requirement of openapi.yaml is a catalogued clause, for every operation prefix', () => {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'x-requirement') found.add(String(v));
      walk(v);
    }
  };
  walk(openapi);
  expect(found.size).toBeGreaterThan(15);
  for (const id of found) {
    const expanded = id.includes('{op}') ? OPERATION_IDS.map((op) => id.replace('{op}', OPERATIONS[op].prefix)) : [id];
    for (const e of expanded) expect(hasRequirement(e), e).toBe(true);
  }
});

/** The fields of an openapi.yaml operation that the next test reads. */
type OperationObject = { operationId?: string; security?: unknown; responses: Record<string, unknown> };

test('each operation of openapi.yaml has bearer security and lists 401', () => {
  for (const item of Object.values(openapi.paths as Record<string, Record<string, OperationObject>>)) {
    for (const op of Object.values(item)) {
      expect(op.security, op.operationId).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(op.responses), op.operationId).toContain('401');
    }
  }
});

test('every operation has its own prefix and its per-operation clauses in the catalogue', () => {
  const prefixes = OPERATION_IDS.map((op) => OPERATIONS[op].prefix);
  expect(new Set(prefixes).size).toBe(prefixes.length);
  for (const op of OPERATION_IDS) {
    const { prefix, section } = OPERATIONS[op];
    for (const suffix of ['200-ENVELOPE', 'HTTP-STATUS-LISTED', '401-MISSING-OR-INVALID-KEY']) {
      expect(requirement(`${prefix}-${suffix}`).operations, `${prefix}-${suffix}`).toEqual([op]);
    }
    expect(requirement(`${prefix}-HTTP-STATUS-LISTED`).section).toBe(section);
  }
  // A clause named after an operation applies to it: reports group clauses by the operations they list.
  for (const r of REQUIREMENTS) {
    const op = OPERATION_IDS.find((o) => r.id.startsWith(`${OPERATIONS[o].prefix}-`));
    if (op) expect(r.operations, r.id).toContain(op);
  }
});

test("each operation's x-spec-section is the section of service-api.md that specifies its method and path", () => {
  const sections = OPERATION_IDS.map((op) => OPERATIONS[op].section);
  expect(new Set(sections).size).toBe(sections.length);
  for (const op of OPERATION_IDS) {
    const { method, path, section } = OPERATIONS[op];
    const start = spec.indexOf(`\n### ${section} `);
    expect(start, `§${section} of ${op}`).toBeGreaterThan(0);
    const end = spec.indexOf('\n#', start + 1);
    const text = spec.slice(start, end);
    expect(text.split('\n')[1], op).toMatch(new RegExp(`^### ${section.replace('.', '\\.')} ${method} `));
    // §4.6 describes its path in words; the static part and each parameter still appear.
    expect(text, op).toContain(path.split('{')[0]);
    for (const [, name] of path.matchAll(/\{(\w+)\}/g)) expect(text, op).toContain(name);
  }
});

test('the generate locales are exactly the 20 of §4.8', () => {
  const line = spec.split('\n').find((l) => l.startsWith('| locale |'))!;
  const listed = line
    .split('allowed values:')[1]!
    .replace('|', '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  expect(listed).toHaveLength(20);
  expect(openapi.components.schemas.Locale.enum).toEqual(listed);
});

test("the error-code catalogue is §7's table, row for row", () => {
  const rows = spec.split('\n').filter((l) => /^\| [A-Z][A-Z0-9_]+ \| /.test(l) && !l.startsWith('| Code'));
  const parsed = rows.map((l) => {
    const [code, status, meaning] = l
      .split('|')
      .slice(1, 4)
      .map((c) => c.trim());
    return { code, httpStatus: status === 'none listed' ? null : Number(status), meaning };
  });
  expect(parsed.length).toBeGreaterThan(60);
  expect(ERROR_CODES).toEqual(parsed);
});

/** Every "not shown" statement of the specification, and the observe clause that records it. */
const NOT_SHOWN: [phrase: string, id: string][] = [
  ['Unit of size: not shown', 'OUTPUT-FILE-SIZE-UNIT'],
  ['Set of values of the file type: not shown', 'OUTPUT-FILE-TYPE-VALUES'],
  ['Transitions: not shown', 'STATE-TRANSITIONS'],
  ['the status that follows an accepted abort request', 'ABORT-OUTCOME'],
  ['Allowed values of order: not shown', 'SEARCH-ORDER-VALUES'],
  ['Content type of the upload request: not shown', 'UPLOAD-CONTENT-TYPE'],
  ['Events: not shown', 'EVENTS'],
  ['HTTP status for codes with none listed: not shown', 'ERROR-STATUS-FOR-UNLISTED-CODES'],
  ['Body shape of error responses other than the 400 of workflow generation: not shown', 'ERROR-BODY-SHAPE'],
  ['Rate limits of the API: not shown', 'LIMIT-RATE'],
  ['Default and maximum page size: not shown', 'SEARCH-PAGESIZE-DEFAULT'],
  ['Default and maximum page size: not shown', 'SEARCH-PAGESIZE-MAX'],
  ['Deprecation and change policy: not shown', 'VERSION-DEPRECATION-POLICY'],
  ['Which operations the content and payload limits apply to: stated only by the codes', 'LIMIT-OPERATIONS'],
];

test('every "not shown" point of the specification is an observe clause', () => {
  for (const [phrase, id] of NOT_SHOWN) {
    expect(spec, phrase).toContain(phrase);
    expect(requirement(id).level, id).toBe('observe');
  }
  const statements = spec.match(/not shown/g) ?? [];
  const phrasesWithNotShown = new Set(NOT_SHOWN.map(([p]) => p).filter((p) => p.includes('not shown')));
  // Each "not shown" in the text is covered by one of the phrases above (two share a line in §3 and §7).
  expect(statements.length).toBeLessThanOrEqual(phrasesWithNotShown.size + 1);
});

test('every limit of §8 is a must clause', () => {
  const limits: [string, string][] = [
    ['Maximum content length (code E2004) | 100k characters', 'LIMIT-CONTENT-100K'],
    ['Maximum request payload size (code E2005) | 100KB', 'LIMIT-PAYLOAD-100KB'],
    ['Retention of unused uploaded files | cleaned up after about 24 hours', 'LIMIT-UNUSED-FILE-RETENTION'],
    ['Page numbering | 1-based', 'SEARCH-PAGE-1-BASED'],
  ];
  for (const [row, id] of limits) {
    expect(spec).toContain(row);
    expect(requirement(id).level).toBe('must');
  }
});

test('openapi.yaml passes a maintained linter (Redocly CLI, recommended rules)', () => {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
      'lint',
      '--config',
      'contracts/redocly.yaml',
      'contracts/openapi.yaml',
      '--format=stylish',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout + run.stderr).toContain('Your API description is valid');
  expect(run.stdout + run.stderr).not.toMatch(/You have \d+ warning/);
});

test('contracts/generated is up to date with openapi.yaml', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate-contracts.ts', '--check'], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(out).toContain('up to date');
});

test('the k6 bundle imports nothing and gives the same findings as the checking API', async () => {
  const bundlePath = join(here, 'generated', 'check.k6.js');
  const text = readFileSync(bundlePath, 'utf8');
  expect(text).not.toMatch(/^\s*import\s/m);
  expect(text).not.toMatch(/\brequire\(\s*["']/);
  const bundle = await import(bundlePath);
  const cases: ResponseUnderCheck[] = [
    { operation: 'getExecutionStatus', status: 200, headers: {}, body: '{"success":true,"data":{"status":"queued"}}' },
    {
      operation: 'runWorkflow',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"success":true,"data":{"executionId":"e","x":1}}',
    },
    { operation: 'searchWorkflows', status: 503, headers: {}, body: '<html>' },
  ];
  for (const c of cases) {
    const found = bundle.checkResponse(c);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(checkResponse(c));
  }
});
