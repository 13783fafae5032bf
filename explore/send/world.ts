/**
 * What an exploration finds before it explores (setup): the canvases it can run and ask about, the one with
 * a file variable and an uploaded file for it, the one that declares variables (where odd values reach a
 * workflow's variable handling, its required ones filled), the canvas generate may overwrite, and what a
 * search shows (the titles listed, the page sizes served). Every setup request goes through the same
 * preparation and checks as explored ones; none of their answers is a finding.
 */
import type { OperationId } from '../../contracts/check.ts';
import { seededFaker } from '../../core/data/seeded.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { dataOf } from '../../core/judging/answers.ts';
import type { SearchItem, WorkflowPlan } from '../../core/judging/payloads.ts';
import { listOf } from '../../core/judging/search.ts';
import { mayBe } from '../../core/discovery/roles.ts';
import { prepare } from '../generate/inputs.ts';
import type { ExploreInput, KnownCanvas, SearchFacts } from '../generate/model.ts';
import type { Session } from './session.ts';

/** Details read to find canvases to run and to ask about. */
const MAX_DETAILS = 10;
/** More details read, when none of the first declares a required text variable, to find one that does. */
const MORE_DETAILS = 10;
const SETUP_PROMPT = 'Summarise the weekly sales report';
/** The page size asked for to see the most a server serves (a server refusing it is asked for 100). */
const LARGE_PAGE = 1_000;

function fillable(plan: WorkflowPlan | undefined, withFiles: boolean): boolean {
  if (!plan || !Array.isArray(plan.tasks)) return false;
  return (plan.variables ?? []).every((v) => !v.required || v.variableType !== 'resource' || withFiles);
}

function hasFileVariable(plan: WorkflowPlan | undefined): boolean {
  return (plan?.variables ?? []).some((v) => v.variableType === 'resource');
}

/** The variable of text a plan declares (a required one first), where an odd value goes. */
function textVariable(plan: WorkflowPlan | undefined): { name: string; required: boolean } | undefined {
  const text = (plan?.variables ?? []).filter(
    (v) => typeof v?.name === 'string' && (v.variableType ?? 'string') === 'string',
  );
  const v = text.find((x) => x.required) ?? text[0];
  return v ? { name: v.name, required: v.required === true } : undefined;
}

const hasRequired = (c: KnownCanvas) => (c.plan?.variables ?? []).some((v) => v.required === true);

/**
 * What the discovery role rules make of a canvas from its plan's title (explore runs nothing to see
 * its behaviour): one that may be disabled, long-running or failing ranks after the plain ones, a
 * possibly disabled one last.
 */
const SUSPECT_ORDER = ['failing', 'long-running', 'disabled'] as const;
const suspicion = (c: KnownCanvas) =>
  SUSPECT_ORDER.reduce((n, b, i) => n + (mayBe({ title: c.plan?.title ?? '', plan: c.plan }, b) ? 1 << i : 0), 0);

const simplest = (a: KnownCanvas, b: KnownCanvas) =>
  suspicion(a) - suspicion(b) ||
  (a.plan?.tasks.length ?? 99) - (b.plan?.tasks.length ?? 99) ||
  (a.plan?.variables?.length ?? 0) - (b.plan?.variables?.length ?? 0);

async function readDetail(s: Session, canvasId: string): Promise<KnownCanvas | undefined> {
  const plan = dataOf<WorkflowPlan>(
    await s.send({ method: 'GET', path: `/openapi/workflows/${encodeURIComponent(canvasId)}` }, 'setup'),
  );
  return plan && typeof plan === 'object' && Array.isArray(plan.tasks) ? { canvasId, plan } : undefined;
}

/** Reads the details of listed (and configured) canvases; returns the ids listed beyond those read. */
async function readCanvases(s: Session): Promise<string[]> {
  const listed = dataOf<SearchItem[]>(
    await s.send({ method: 'GET', path: '/openapi/workflows', query: { pageSize: 50 } }, 'setup'),
  );
  const ids = [...(s.options.canvasIds ?? [])];
  for (const item of Array.isArray(listed) ? listed : [])
    if (typeof item?.canvasId === 'string' && !ids.includes(item.canvasId)) ids.push(item.canvasId);
  for (const canvasId of ids.slice(0, MAX_DETAILS)) {
    const known = await readDetail(s, canvasId);
    if (known) s.world.canvases.push(known);
  }
  s.setupNotes.push(`read ${s.world.canvases.length} canvas detail(s) of ${ids.length} listed or configured`);
  return ids.slice(MAX_DETAILS);
}

/** Sends a setup input through the same preparation as explored ones (references, declared variables). */
async function setupSend(s: Session, input: ExploreInput): Promise<Exchange> {
  const p = prepare(input, s.world);
  const ex = await s.send(p.spec, 'setup');
  s.account(p, ex);
  return ex;
}

const PLAIN_RUN = (canvas: 'plain' | 'inputs'): ExploreInput => ({
  op: 'runWorkflow',
  family: 'setup',
  canvas: { $canvas: canvas },
  body: { form: 'json', variables: { $object: [] }, legacy: [] },
  fill: { text: 'wfcheck', option: 0, fileKeys: [{ $fileKey: 0 }], asArray: false },
});

const started = (ex: Exchange) => ex.status !== undefined && ex.status >= 200 && ex.status < 300;

/**
 * The canvas odd values go to: one that declares a variable of text, a required one preferably (on an
 * account where every workflow needs an input, that is every workflow), all its required ones fillable;
 * run once with them filled, so a refusal of an odd value is about the value. More details are read
 * when none of the first declares a required one.
 */
async function findInputs(s: Session, more: readonly string[]): Promise<void> {
  const withFiles = s.world.fileKeys.length > 0;
  const usable = (c: KnownCanvas) => fillable(c.plan, withFiles) && textVariable(c.plan) !== undefined;
  const wanted = (c: KnownCanvas) => usable(c) && hasRequired(c);
  for (const canvasId of s.world.canvases.some(wanted) ? [] : more.slice(0, MORE_DETAILS)) {
    const known = await readDetail(s, canvasId);
    if (!known) continue;
    s.world.canvases.push(known);
    if (wanted(known)) break;
  }
  const candidates = s.world.canvases
    .filter(usable)
    .sort((a, b) => Number(hasRequired(b)) - Number(hasRequired(a)) || simplest(a, b));
  for (const c of candidates.slice(0, 2)) {
    s.world.inputs = { ...c, variable: textVariable(c.plan)!.name };
    if (c.canvasId === s.world.plain?.canvasId || started(await setupSend(s, PLAIN_RUN('inputs')))) break;
    s.world.inputs = undefined;
  }
  const inputs = s.world.inputs;
  s.setupNotes.push(
    inputs
      ? `odd values go to variable "${inputs.variable}" of ${inputs.canvasId}${hasRequired(inputs) ? ', its required variables filled' : ''}`
      : 'no runnable canvas declares a variable of text: odd values reach no declared variable',
  );
}

/**
 * What a search shows: the titles listed and the page sizes served without pageSize and at most (a
 * default is known when the listing is longer than it). Twenty random letters from the run's seed make a
 * keyword no title holds.
 */
async function readSearch(s: Session): Promise<void> {
  const ask = async (pageSize?: number) =>
    listOf(
      await s.send(
        { method: 'GET', path: '/openapi/workflows', ...(pageSize ? { query: { pageSize } } : {}) },
        'setup',
      ),
    ).items;
  const byDefault = await ask();
  const most = (await ask(LARGE_PAGE)) ?? (await ask(100));
  const items = (most ?? byDefault ?? [])
    .filter((i) => typeof i?.canvasId === 'string' && typeof i?.title === 'string')
    .map((i) => ({ canvasId: i.canvasId, title: i.title }));
  const faker = seededFaker(s.options.seed, 'explore: a keyword no title holds');
  let nonsense = faker.string.alpha({ length: 20, casing: 'lower' });
  while (items.some((i) => i.title.toLowerCase().includes(nonsense)))
    nonsense = faker.string.alpha({ length: 20, casing: 'lower' });
  const facts: SearchFacts = {
    items,
    capped: (most?.length ?? 0) >= LARGE_PAGE,
    ...(byDefault && most && byDefault.length < most.length ? { servedByDefault: byDefault.length } : {}),
    ...(most?.length ? { servedAtMost: most.length } : {}),
    nonsense,
  };
  s.world.search = facts;
  s.setupNotes.push(
    `search lists ${items.length} workflow(s)${facts.capped ? ' or more' : ''}; served by default: ${facts.servedByDefault ?? 'all of them (the default not known)'}`,
  );
}

async function chooseOverwrite(s: Session): Promise<void> {
  if (s.options.overwriteCanvasId) s.world.overwrite = s.options.overwriteCanvasId;
  else {
    const ex = await setupSend(s, {
      op: 'generateWorkflow',
      family: 'setup',
      body: { form: 'json', query: SETUP_PROMPT, create: true },
    });
    const id = dataOf<{ canvasId?: unknown }>(ex)?.canvasId;
    if (typeof id === 'string') s.world.overwrite = id;
  }
  s.setupNotes.push(`generate overwrites ${s.world.overwrite ?? 'nothing (no canvas to overwrite)'}`);
}

export async function buildWorld(s: Session, ops: readonly OperationId[]): Promise<void> {
  const runs = ops.some((o) =>
    ['runWorkflow', 'getExecutionStatus', 'getExecutionOutput', 'abortExecution'].includes(o),
  );
  const more = runs || ops.includes('getWorkflowDetail') ? await readCanvases(s) : [];
  const sorted = [...s.world.canvases].sort(simplest);
  const files = sorted.find((c) => hasFileVariable(c.plan) && fillable(c.plan, true));
  if (ops.includes('runWorkflow') && files) {
    const ex = await setupSend(s, {
      op: 'uploadFiles',
      family: 'setup',
      body: { form: 'files', files: [{ name: 'wfcheck-explore.txt', type: 'text/plain', size: 32, fill: 7 }] },
    });
    if (s.world.fileKeys.length) s.world.files = files;
    else s.setupNotes.push(`no file uploaded (${ex.status ?? ex.fault?.kind}): runs carry no fileKey`);
  }
  // The runnable canvas is the simplest one that starts an execution; trying costs one execution each.
  for (const c of sorted.filter((x) => fillable(x.plan, false)).slice(0, runs ? 3 : 1)) {
    s.world.plain = c;
    if (!runs || started(await setupSend(s, PLAIN_RUN('plain')))) break;
    s.world.plain = undefined;
  }
  s.setupNotes.push(
    `runnable canvas: ${s.world.plain?.canvasId ?? 'none'}; canvas with a file variable: ${s.world.files?.canvasId ?? 'none'}`,
  );
  if (ops.includes('runWorkflow')) await findInputs(s, more);
  if (ops.includes('generateWorkflow') && s.options.allowOverwrite) await chooseOverwrite(s);
  else if (ops.includes('generateWorkflow'))
    s.setupNotes.push('overwriting is not allowed: every generation creates a canvas (capped)');
  // Last, so the listing read holds what setup created.
  if (ops.includes('searchWorkflows')) await readSearch(s);
}

/**
 * Executions the exploration started are aborted: nothing it started keeps running (or costing) after it.
 * A target that answers an abort not at all within the deadline would answer the others no sooner: the
 * rest are named as left, not waited for one deadline each.
 */
export async function cleanup(s: Session): Promise<void> {
  const ids = s.world.executions;
  for (const [i, id] of ids.entries()) {
    const ex = await s.send({ method: 'POST', path: `/openapi/workflow/${encodeURIComponent(id)}/abort` }, 'cleanup');
    if (ex.fault?.kind !== 'timeout') continue;
    s.setupNotes.push(
      `cleanup stopped: an abort got no answer within the deadline; ${ids.length - i} execution(s) the exploration started may still run`,
    );
    return;
  }
}
