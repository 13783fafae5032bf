/**
 * The judges of an execution's life (§1, §4.1–4.4): a run is accepted (a 2xx carrying an executionId,
 * whichever 2xx) in each form and with each kind of value, and returns an id the status endpoint knows;
 * the files its output lists serve themselves from their url. What a run gets for a variable its plan
 * does not declare, and whether a file's url needs the key, are recorded (neither is shown). The execution
 * folder (core/execution/) sends the runs and reads, and hands each answer here.
 *
 * When a step deviates, what depends on it is "blocked by" the clause that failed first, never failed a
 * second time; a refusal the harness cannot tell from a refusal of its own guess is not judged.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';
import { faultStop, type Exchange } from '../transport/exchange.ts';
import { missingPayload } from './contract.ts';
import { judge, type Judging } from './judge.ts';
import { accepted, expectStatus, type Judged } from './expect.ts';
import { dataOf, describe, served, statusDeviation } from './answers.ts';
import { dependsOn, onAttempt, stopAll, type Attempt, type Stop } from './stops.ts';
import { VARIABLE_TYPES, type OutputFile, type Snapshot, type WorkflowPlan } from './payloads.ts';
import { checkExecutionHistory } from './relations.ts';

// ---- runs ---------------------------------------------------------------------------------------------

/** What a run is about: the body's form (§4.1, §9.2), a file variable, values of every kind, no body at all. */
export type RunAbout = 'wrapper' | 'legacy' | 'file variable' | 'value kinds' | 'no body';

const RUN_CLAUSE = {
  wrapper: 'RUN-VARIABLES-WRAPPER',
  legacy: 'RUN-LEGACY-TOP-LEVEL',
  'file variable': 'RUN-FILE-VARIABLE',
  'value kinds': 'RUN-VALUE-KINDS',
  'no body': 'RUN-WITHOUT-BODY',
} as const satisfies Record<RunAbout, ClauseId>;

/**
 * The judge of runs: accepted in what they are about, and returning an id the status endpoint knows; the
 * status an accepted run answers with is recorded (transitions, the first status included, are not shown).
 */
export const runs = judge('runs', [
  ...Object.values(RUN_CLAUSE),
  'RUN-RETURNS-EXECUTION-ID',
  'STATE-TRANSITIONS',
  'RUN-UNDECLARED-VARIABLES',
]);

type Runs = Judging<typeof runs>;

/** The clauses the runs about `about` are accepted under. */
export function clausesOfRun(about: readonly RunAbout[]): ClauseId[] {
  return about.map((a) => RUN_CLAUSE[a]);
}

/** What the plan of the workflow run says of its variables (a refusal may be of the harness's own guess). */
interface Planned {
  plan?: WorkflowPlan;
}

/** Variable types a plan gives outside the enum of §2.5 (VARIABLE-TYPE-ENUM's finding). */
export function unlistedVariableTypes(w: Planned): string[] {
  return (w.plan?.variables ?? [])
    .map((v): string | undefined => v.variableType)
    .filter((t): t is string => t !== undefined && !VARIABLE_TYPES.includes(t));
}

/**
 * Variables whose plan leaves open what they take: no type, an option without its options, or no word on
 * whether it is required. The spec makes all three optional, so the values the harness sends for them are
 * guesses, and a refusal of the run may be a refusal of a guess rather than of the request's form.
 */
export function vaguelyDescribedVariables(w: Planned): string[] {
  return (w.plan?.variables ?? [])
    .filter(
      (v) =>
        v.variableType === undefined ||
        v.required === undefined ||
        (v.variableType === 'option' && (v.options ?? []).length === 0),
    )
    .map((v) => v.name);
}

/**
 * Why a refused run of `wf` says nothing of the clauses: the workflow's API is disabled (a listed meaning:
 * the harness picked a workflow it cannot run), a value the harness guessed may be what was refused
 * (`guess`: a control run in the other form can still tell), or the plan typed variables outside the enum
 * (blocked by VARIABLE-TYPE-ENUM). Undefined when the answer is to be judged.
 */
export function unjudgeableRefusal(
  run: Exchange,
  wf: Planned | undefined,
  message: string,
): (Stop & { guess?: true }) | undefined {
  if (run.status === 403) return { reason: `${message}: the workflow's API is disabled (403)` };
  if (served(run) || statusDeviation(run)) return undefined;
  // A plan without a variables list says nothing of what the workflow takes (the list is optional).
  const vague = !wf?.plan ? [] : wf.plan.variables === undefined ? ['its variables'] : vaguelyDescribedVariables(wf);
  if (run.status === 400 && vague.length > 0) {
    return {
      guess: true,
      reason:
        `${message}: cannot judge: refused (${describe(run)}), and the plan leaves open what ` +
        `${vague.join(', ')} take(s), so a value the harness guessed may be what was refused`,
    };
  }
  const unlisted = wf ? unlistedVariableTypes(wf) : [];
  if (unlisted.length === 0) return undefined;
  return {
    blockedBy: 'VARIABLE-TYPE-ENUM',
    reason: `${message}: refused (${describe(run)}); the plan types variables as ${unlisted.join(', ')}`,
  };
}

const executionIdOf = (data: unknown): string | undefined => {
  const id = (data as { executionId?: unknown } | null | undefined)?.executionId;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/** The executionId of a run answer that started an execution (a 2xx carrying one), else undefined. */
export function executionIdIn(run: Exchange): string | undefined {
  return executionIdOf(dataOf(run));
}

/**
 * The answer to a run: each clause of `about` is accepted when the answer is a 2xx carrying an
 * executionId (RUN-RETURNS-EXECUTION-ID judges an answer without one). A refusal that `unjudgeable` says
 * nothing of stops them instead; `shown` is what a control run showed, when one made the refusal judgeable.
 * Returns the execution's id, or the stop of what needed it.
 */
export const judgeRunAnswer = runs.judges(
  (
    v,
    about: readonly RunAbout[],
    run: Exchange,
    runMessage: string,
    unjudgeable: Stop | undefined,
    shown?: string,
  ): Judged<string> => {
    if (unjudgeable && !shown) {
      stopAll(v, clausesOfRun(about), unjudgeable);
      return { ok: false, stop: unjudgeable };
    }
    const message = shown ? `${runMessage}; ${shown}` : runMessage;
    let judged: Judged<string> | undefined;
    for (const id of about.map((a) => RUN_CLAUSE[a]))
      judged = accepted(
        v,
        id,
        run,
        { carries: 'an executionId', read: executionIdOf, judgedBy: 'RUN-RETURNS-EXECUTION-ID' },
        message,
      );
    judged ??= accepted(
      v,
      'RUN-RETURNS-EXECUTION-ID',
      run,
      { carries: 'an executionId', read: executionIdOf },
      message,
    );
    if (!judged.ok) judgeMissingId(v, run, judged.stop, message);
    else {
      const status = dataOf<{ status?: unknown }>(run)?.status;
      v.observe('STATE-TRANSITIONS', 'status the run answers', status ?? '(absent)', run.record.id);
    }
    return judged;
  },
);

/** A run whose acceptance failed for want of an id fails RUN-RETURNS-EXECUTION-ID; one blocked blocks it too. */
function judgeMissingId(v: Runs, run: Exchange, stop: Stop, message: string): void {
  if (stop.blockedBy === 'RUN-RETURNS-EXECUTION-ID')
    v.check('RUN-RETURNS-EXECUTION-ID', false, {
      message,
      expected: 'data.executionId',
      actual: JSON.stringify(dataOf(run) ?? null),
      exchangeId: run.record.id,
    });
  else if (served(run) && stop.blockedBy) v.blocked('RUN-RETURNS-EXECUTION-ID', stop.blockedBy, stop.reason);
}

/** What the status read of the id a run returned says: the execution to follow, or why there is none. */
export interface Known {
  executionId?: string;
  stop?: Stop;
  /** No one can follow the execution: the caller aborts it. */
  abandon?: true;
}

/** RUN-RETURNS-EXECUTION-ID: "returns an execution ID for tracking" — the status endpoint knows it. */
export const judgeKnownToStatus = runs.judges((v, executionId: string, status: Exchange, message: string): Known => {
  // No answer to judge the id by: the fault stops the clause, and the execution nobody can follow is abandoned.
  const faulted = faultStop(status);
  if (faulted) {
    if (faulted.blockedBy) v.blocked('RUN-RETURNS-EXECUTION-ID', faulted.blockedBy, faulted.reason);
    else v.notRun('RUN-RETURNS-EXECUTION-ID', faulted.reason);
    return { stop: faulted, abandon: true };
  }
  const deviation = statusDeviation(status);
  const reason = `status of ${executionId}, returned by the ${message}: ${describe(status)}`;
  if (deviation) {
    const stop = { blockedBy: deviation, exchangeIds: [status.record.id], reason };
    v.blocked('RUN-RETURNS-EXECUTION-ID', stop);
    return { stop };
  }
  if (status.status === 429) {
    // Rate limited (legal, §8): the id is neither confirmed nor refuted, and the execution is left to run.
    v.notRun('RUN-RETURNS-EXECUTION-ID', `${reason}: still rate limited after waiting out Retry-After`);
    return { executionId };
  }
  const known = v.check('RUN-RETURNS-EXECUTION-ID', served(status), {
    message: `${message}: the status endpoint knows the executionId ${executionId}`,
    expected: 'a 2xx status answer',
    actual: describe(status),
    exchangeId: status.record.id,
  });
  return known ? { executionId } : { stop: { blockedBy: 'RUN-RETURNS-EXECUTION-ID', reason } };
});

/**
 * A read of an execution (its status or output) that gave no data to go on with: a refusal of an
 * execution the run returned breaks RUN-RETURNS-EXECUTION-ID ("an execution ID that the status endpoint
 * knows"); a served answer without data breaks the operation's data clause (the contract's). The cases a
 * contract clause or the harness already explains are the caller's (see the poll).
 */
export const judgeUnreadExecution = runs.judges((v, ex: Exchange, what: string): Stop => {
  if (served(ex) && ex.operation) return missingPayload(v, ex, ex.operation, what);
  v.check('RUN-RETURNS-EXECUTION-ID', false, {
    message: what,
    expected: 'the execution the run returned is known',
    actual: describe(ex),
    exchangeId: ex.record.id,
  });
  return { blockedBy: 'RUN-RETURNS-EXECUTION-ID', reason: `${what}: ${describe(ex)}` };
});

/** The runs about `about` could not be made (a file variable without a key…): stopped by why. */
export function runNotMade(v: AnyRecorder, about: readonly RunAbout[], stop: Stop): void {
  stopAll(v, clausesOfRun(about), stop);
}

/**
 * No discovered workflow has a file variable: not run — unless plans type variables outside the enum,
 * which may hide them (blocked by VARIABLE-TYPE-ENUM on the plans discovery read).
 */
export function fileVariableNotExercised(v: AnyRecorder, unlistedTypes: readonly string[], unfilled: string): void {
  if (unlistedTypes.length > 0)
    v.blocked('RUN-FILE-VARIABLE', {
      blockedBy: 'VARIABLE-TYPE-ENUM',
      step: 'the plans discovery read',
      reason: `no variable is typed resource; plans type variables as ${[...new Set(unlistedTypes)].join(', ')}`,
    });
  else v.notRun('RUN-FILE-VARIABLE', unfilled);
}

/** No workflow to run what `about` needs: not run, with the reason. */
export function runNotExercised(v: AnyRecorder, about: RunAbout, reason: string): void {
  v.notRun(RUN_CLAUSE[about], reason);
}

/**
 * A variable typed string takes what its type says, so what it makes of a value of another kind is
 * recorded (under RUN-VALUE-KINDS), not judged.
 */
export const observeTypedValue = runs.judges((v, kind: string, run: Exchange): void =>
  v.observe('RUN-VALUE-KINDS', `a variable typed string given ${kind}`, describe(run), run.record.id),
);

/** A name the plan does not declare, for the variable a run gives besides the declared ones. */
export function undeclaredName(plan: WorkflowPlan): string {
  const declared = new Set((plan.variables ?? []).map((v) => v.name));
  let name = 'wfcheck_undeclared';
  while (declared.has(name)) name += '_';
  return name;
}

/**
 * A run with an undeclared variable refused with a 4xx (rate limits aside): only the same run without that
 * variable tells whether the refusal is of the name or of a value the harness guessed for a declared one.
 */
export function undeclaredNeedsControl(run: Exchange): boolean {
  return run.status !== undefined && run.status >= 400 && run.status < 500 && run.status !== 429;
}

/**
 * What a run gets for a variable its plan does not declare is not shown: recorded, ignored (accepted) or
 * refused. A refusal is recorded only when `control`, the same run without the variable, is accepted; an
 * answer that already failed the status clause blocks it.
 */
export const observeUndeclared = runs.judges((v, attempt: Attempt, control?: Exchange): void =>
  onAttempt(v, 'RUN-UNDECLARED-VARIABLES', attempt, (run, message) => {
    const deviation = statusDeviation(run);
    if (deviation)
      v.blocked('RUN-UNDECLARED-VARIABLES', {
        blockedBy: deviation,
        exchangeIds: [run.record.id],
        reason: `${message}: ${describe(run)}`,
      });
    else if (run.status === 429) v.notRun('RUN-UNDECLARED-VARIABLES', `${message}: rate limited (${describe(run)})`);
    else if (undeclaredNeedsControl(run) && !(control && served(control)))
      v.notRun(
        'RUN-UNDECLARED-VARIABLES',
        control
          ? `${message}: refused (${describe(run)}), and so was the same run without it (${describe(control)}): the refusal is not the undeclared name's`
          : `${message}: refused (${describe(run)}), and no run without it was made to tell whose refusal it is`,
      );
    else v.observe('RUN-UNDECLARED-VARIABLES', 'a variable the plan does not declare', describe(run), run.record.id);
  }),
);

// ---- a lifecycle: the history and the files of one execution ------------------------------------------

/** The judge of the files a finished execution's output lists: each url serves its file. */
export const outputFiles = judge('the files of an output', [
  'OUTPUT-FILE-URL-SERVES',
  'OUTPUT-FILE-URL-KEY',
  'OUTPUT-FILE-TYPE-VALUES',
  'OUTPUT-FILE-SIZE-UNIT',
]);

type Files = Judging<typeof outputFiles>;

/** What the first lifecycle judges on the execution's history and output, once it ran. */
const AFTER_START: ClauseId[] = [
  'STATUS-ECHOES-EXECUTION',
  'TIMES-ORDERED',
  'OUTPUT-FILE-NODE-EXISTS',
  'OUTPUT-FILE-TYPE-VALUES',
  'OUTPUT-FILE-SIZE-UNIT',
  'OUTPUT-FILE-URL-SERVES',
  'OUTPUT-FILE-URL-KEY',
];
/** What needs the files themselves (OUTPUT-FILE-NODE-EXISTS is the history's, judged on every output read). */
const ON_FILES: ClauseId[] = [
  'OUTPUT-FILE-TYPE-VALUES',
  'OUTPUT-FILE-SIZE-UNIT',
  'OUTPUT-FILE-URL-SERVES',
  'OUTPUT-FILE-URL-KEY',
];

/** One execution as followed: its id, the snapshots read, and why the poll ended early when it did. */
export interface Followed {
  executionId?: string;
  snaps: Snapshot[];
  stop?: Stop;
}

/**
 * An execution followed to judge its lifecycle: its history is judged (the part read, when it was cut
 * short), and what needed its end or its files is stopped by why it was not seen. A run never sent (its
 * upload failed) leaves the wrapper clause blocked: what needed the run is blocked by it. Returns whether
 * the execution ran to its end, so its files can be read.
 */
export function judgeLifecycle(
  v: AnyRecorder,
  followed: Followed,
  wf: { canvasId: string; plan?: WorkflowPlan },
  runSent: boolean,
): boolean {
  const { executionId, snaps, stop } = followed;
  if (stop && executionId && snaps.length > 0) {
    checkExecutionHistory(v, executionId, wf.plan, snaps, stop);
    stopAll(
      v,
      AFTER_START.filter((id) => !v.recorded.has(id)),
      stop,
    );
    return false;
  }
  if (stop) {
    const step = `the run of ${wf.canvasId} (never sent)`;
    stopAll(v, AFTER_START, runSent ? stop : dependsOn('RUN-VARIABLES-WRAPPER', stop, step));
    return false;
  }
  const facts = checkExecutionHistory(v, executionId!, wf.plan, snaps);
  if (!facts.sawFiles) v.notRun('OUTPUT-FILE-NODE-EXISTS', `the execution of ${wf.canvasId} produced no file`);
  return true;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** How one file's url was read: the answer (asked again once after a server error), or why it was not. */
export interface FileRead {
  file: OutputFile;
  got?: Exchange;
  notRead?: string;
  /** `got` was read with the key: the url is on the base address's origin, the only one the key goes to. */
  keyed?: boolean;
  /** The same url read without the key (the first url read with it only). */
  unkeyed?: Exchange;
}

/**
 * The url each file is read from, or why it is not: files[].url is optional, and this harness only ever
 * talks to loopback addresses. The first five files at most; `keyed` when the key goes with the read.
 */
export function fileUrls(
  files: readonly OutputFile[],
  baseUrl: string,
): { file: OutputFile; url?: URL; keyed?: boolean; notRead?: string }[] {
  return files.slice(0, 5).map((file) => {
    if (!file.url) return { file, notRead: `cannot judge: file ${file.name} has no url (files[].url is optional)` };
    const url = new URL(file.url, baseUrl);
    if (!LOOPBACK.test(url.hostname))
      return { file, notRead: `file url host ${url.hostname} is not a loopback address` };
    return { file, url, keyed: url.origin === new URL(baseUrl).origin };
  });
}

/**
 * Whether a file's url needs the key is not shown: the first url read, read once more without the key
 * when the first read carried it, is recorded. A url on another origin was read without the key already.
 * Only a url that served its file with the key tells anything.
 */
function observeUrlKey(v: Files, reads: readonly FileRead[]): void {
  const read = reads.find((r) => r.got);
  if (!read?.got) {
    v.notRun('OUTPUT-FILE-URL-KEY', reads.find((r) => r.notRead)?.notRead ?? 'no file url was read');
    return;
  }
  const { file, got, keyed, unkeyed } = read;
  const key = 'a file url read without the key';
  if (!keyed && served(got))
    v.observe(
      'OUTPUT-FILE-URL-KEY',
      key,
      `${describe(got)} (another origin: the key is never sent there)`,
      got.record.id,
    );
  else if (!keyed)
    v.notRun(
      'OUTPUT-FILE-URL-KEY',
      `the url of file ${file.name} is on another origin than the base address, where the key is never sent, and answered ${describe(got)}`,
    );
  else if (!served(got))
    v.blocked('OUTPUT-FILE-URL-KEY', {
      blockedBy: 'OUTPUT-FILE-URL-SERVES',
      exchangeIds: [got.record.id],
      reason: `the url of file ${file.name} did not serve it with the key (${describe(got)})`,
    });
  else if (!unkeyed) v.notRun('OUTPUT-FILE-URL-KEY', `the url of file ${file.name} was not read without the key`);
  else v.observe('OUTPUT-FILE-URL-KEY', key, describe(unkeyed), unkeyed.record.id);
}

/**
 * The files of a finished execution, as its last output listed them: their types are observed, each url
 * read serves its file, and the unit of their size is read against the bytes served. size and url are
 * optional (§2.3): a file without them says nothing of what needs them.
 */
export const judgeFiles = outputFiles.judges(
  (v, canvasId: string, files: readonly OutputFile[], reads: readonly FileRead[], outputRef?: string): void => {
    if (files.length === 0) {
      for (const id of ON_FILES) v.notRun(id, `the execution of ${canvasId} produced no file`);
      return;
    }
    for (const f of files) v.observe('OUTPUT-FILE-TYPE-VALUES', 'file type', f.type, outputRef);
    let sizeRead = false;
    const sizeNotRead = new Set<string>();
    for (const { file: f, got, notRead } of reads) {
      if (!got) {
        v.notRun('OUTPUT-FILE-URL-SERVES', notRead!);
        sizeNotRead.add(f.url ? notRead! : 'cannot judge: no file with a size has a url to read its bytes from');
        continue;
      }
      const servedFile = expectStatus(
        v,
        'OUTPUT-FILE-URL-SERVES',
        got,
        { ok: served, expected: 'the file (a 2xx)' },
        `GET the url of file ${f.name}`,
      );
      if (typeof f.size !== 'number') {
        sizeNotRead.add(`cannot judge: file ${f.name} has no size (files[].size is optional)`);
        continue;
      }
      if (!servedFile) {
        // Its bytes were the data the unit is read against.
        v.blocked('OUTPUT-FILE-SIZE-UNIT', {
          blockedBy: 'OUTPUT-FILE-URL-SERVES',
          exchangeIds: [got.record.id],
          reason: `the url of file ${f.name} did not serve it`,
        });
        continue;
      }
      sizeRead = true;
      const bytes = got.record.response?.bodyBytes ?? 0;
      v.observe(
        'OUTPUT-FILE-SIZE-UNIT',
        'size vs served bytes',
        f.size === bytes ? 'bytes (size equals the served length)' : `size ${f.size} for ${bytes} served bytes`,
        got.record.id,
      );
    }
    if (!sizeRead) for (const reason of sizeNotRead) v.notRun('OUTPUT-FILE-SIZE-UNIT', reason);
    observeUrlKey(v, reads);
  },
);
