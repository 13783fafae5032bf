/**
 * What an execution's output shows, against its statuses (§3): files only once the node that produced them
 * has finished, partial content only while a node executes or after it failed, node times in the order
 * of events, and which of its nodes a finished execution's output lists (recorded). Each is judged on the reads that carry what it needs (a file's nodeId, a node's status, the
 * times); one without it is "not run" with that reason.
 */
import type { Snapshot } from './payloads.ts';
import { NODE_STATUSES, type OutputNode } from './payloads.ts';
import type { ClauseId } from '../../contracts/requirements.ts';
import { judge, type Judging } from './judge.ts';
import { cannotJudge, statusRef, TERMINAL } from './relation-basics.ts';

/** The judge of what an execution's output shows against its statuses, and of its times. */
export const outputVisibility = judge("what an execution's output shows, and when", [
  'OUTPUT-FILE-NODE-EXISTS',
  'OUTPUT-FILES-ONLY-AFTER-FINISH',
  'OUTPUT-PARTIAL-CONTENT',
  'TIMES-ORDERED',
  'OUTPUT-NODES-LISTED',
]);

type Visibility = Judging<typeof outputVisibility>;

/** Node statuses by nodeId, as one status or output answer lists them (a node listed without one maps to undefined). */
function statusesOf(
  nodes: readonly { nodeId: string; status?: string }[] | undefined,
): Map<string, string | undefined> {
  return new Map((nodes ?? []).map((n) => [n.nodeId, n.status]));
}

/** A node's status as one answer gave it: the output that lists the file, or a status read after it. */
interface StatusRead {
  status: string;
  ref: string;
  from: 'output' | 'after';
}

/**
 * What a file's producing node was when the output showing the file was served: its status in that
 * output (when it lists the node) and in the status read after it — the confirming read made at once when
 * the output did not show the node ended (poll.ts), else the next poll, or this poll's own when the
 * execution had already ended (then nothing changes any more). A node that finished between two reads is
 * never blamed: the later read already shows it finish.
 */
function producerStatuses(snaps: Snapshot[], i: number, nodeId: string): StatusRead[] {
  const s = snaps[i];
  const laterSnap = snaps[i + 1] ?? (TERMINAL.has(s.status.status ?? '') ? s : undefined);
  const after = s.confirm
    ? withRef(statusesOf(s.confirm.status.nodeExecutions).get(nodeId), s.confirm.exchange.record.id, 'after')
    : withRef(statusesOf(laterSnap?.status.nodeExecutions).get(nodeId), laterSnap && statusRef(laterSnap), 'after');
  const reads = [withRef(statusesOf(s.output?.output).get(nodeId), s.outputExchange?.record.id, 'output'), after];
  return reads.filter((r): r is StatusRead => r !== undefined);
}

function withRef(
  status: string | undefined,
  ref: string | undefined,
  from: StatusRead['from'],
): StatusRead | undefined {
  return status !== undefined && ref !== undefined ? { status, ref, from } : undefined;
}

/** Every node of the execution as one output and the status read after it list them, with its statuses there. */
function allNodeStatuses(snaps: Snapshot[], i: number): Map<string, StatusRead[]> {
  const s = snaps[i];
  const laterSnap = snaps[i + 1] ?? (TERMINAL.has(s.status.status ?? '') ? s : undefined);
  const ids = new Set([
    ...(s.output?.output ?? []).map((n) => n.nodeId),
    ...(laterSnap?.status.nodeExecutions ?? []).map((n) => n.nodeId),
  ]);
  return new Map([...ids].map((id) => [id, producerStatuses(snaps, i, id)]));
}

/**
 * OUTPUT-FILE-NODE-EXISTS and OUTPUT-FILES-ONLY-AFTER-FINISH, for each file of each output read, from
 * both views (the output and the status), whether or not the output lists the node. Returns whether any
 * file was seen.
 */
export const checkVisibility = outputVisibility.judges((v, executionId: string, snaps: Snapshot[]): boolean => {
  let sawFiles = false;
  let namedNode = false;
  const notJudged = { exists: new Set<string>(), finished: new Set<string>() };
  const finishedContent = new Map<string, string>();
  let contentJudged = false;
  const nodesOfExecution = new Set(
    snaps.flatMap((s) => [...(s.status.nodeExecutions ?? []), ...(s.output?.output ?? [])].map((n) => n.nodeId)),
  );
  snaps.forEach((s, i) => {
    if (!s.output) return;
    const outRef = s.outputExchange!.record.id;
    for (const f of s.output.files ?? []) {
      sawFiles = true;
      if (f.nodeId === undefined) {
        checkUnnamedProducer(v, f.name, allNodeStatuses(snaps, i), executionId, outRef, notJudged.finished);
        continue;
      }
      namedNode = true;
      if (nodesOfExecution.size === 0) {
        notJudged.exists.add(cannotJudge(`neither the status nor the output of ${executionId} lists its nodes`));
        notJudged.finished.add(cannotJudge(`neither the status nor the output of ${executionId} lists its nodes`));
        continue;
      }
      const exists = nodesOfExecution.has(f.nodeId);
      v.check('OUTPUT-FILE-NODE-EXISTS', exists, {
        message: `file ${f.name} names node ${f.nodeId}`,
        expected: 'a node of the execution',
        actual: exists ? 'listed' : 'no such node',
        exchangeId: outRef,
      });
      if (!exists) {
        // Which node's status to wait for is unknown: the must clause has nothing to judge that file on.
        v.blocked('OUTPUT-FILES-ONLY-AFTER-FINISH', {
          blockedBy: 'OUTPUT-FILE-NODE-EXISTS',
          exchangeIds: [outRef],
          reason: `file ${f.name} names node ${f.nodeId}, which the execution does not list`,
        });
        continue;
      }
      const reads = producerStatuses(snaps, i, f.nodeId);
      if (reads.length === 0) {
        notJudged.finished.add(cannotJudge(`the status of node ${f.nodeId} is absent from the output and the status`));
        continue;
      }
      checkProducerFinished(v, f.name, f.nodeId, reads, executionId, outRef);
    }
    for (const n of s.output.output ?? [])
      contentJudged = checkNodeContent(v, n, finishedContent, executionId, outRef) || contentJudged;
  });
  if (sawFiles && !namedNode)
    notJudged.exists.add(cannotJudge(`files[].nodeId absent from the output of ${executionId}`));
  for (const reason of notJudged.exists) v.notRun('OUTPUT-FILE-NODE-EXISTS', reason);
  for (const reason of notJudged.finished) v.notRun('OUTPUT-FILES-ONLY-AFTER-FINISH', reason);
  if (!contentJudged) v.notRun('OUTPUT-PARTIAL-CONTENT', partialContentNotJudged(executionId, snaps));
  return sawFiles;
});

/**
 * Which nodes the output lists ("output nodes" are not defined, so every node or only some): the last
 * output read once the status read finish, against every node the status listed. An execution that did
 * not finish (nodes after a failure never ran) or of one node cannot tell: returns why it was not recorded.
 */
export const observeOutputNodes = outputVisibility.judges(
  (v, executionId: string, snaps: Snapshot[]): string | undefined => {
    const finished = snaps.filter((s) => s.output && s.status.status === 'finish').at(-1);
    if (!finished)
      return snaps.at(-1)?.status.status === 'failed'
        ? `${executionId} ended failed: the nodes after a failure never ran, so the output says nothing of which it lists`
        : `no output of ${executionId} was read once its status read finish`;
    const nodes = new Set(snaps.flatMap((s) => (s.status.nodeExecutions ?? []).map((n) => n.nodeId)));
    if (nodes.size < 2)
      return `the status of ${executionId} lists ${nodes.size} node(s): listing every node and only the output nodes cannot be told apart`;
    const listed = new Set((finished.output!.output ?? []).map((n) => n.nodeId));
    const known = [...listed].filter((id) => nodes.has(id)).length;
    const strangers = listed.size - known;
    v.observe(
      'OUTPUT-NODES-LISTED',
      'nodes the output lists once the execution finished',
      `${known} of ${nodes.size} nodes${strangers ? `; ${strangers} more that the status does not list` : ''}`,
      finished.outputExchange!.record.id,
    );
    return undefined;
  },
);

/** An execution followed to its end produced no file: what needs one is not run. */
export const noFileProduced = outputVisibility.judges((v, what: string): void =>
  v.notRun('OUTPUT-FILES-ONLY-AFTER-FINISH', `${what} produced no file`),
);

/** Why no output node of an execution could be judged for partial content. */
function partialContentNotJudged(executionId: string, snaps: Snapshot[]): string {
  const nodes = snaps.flatMap((s) => s.output?.output ?? []);
  if (nodes.length === 0) return cannotJudge(`no output of ${executionId} lists a node`);
  if (nodes.every((n) => n.status === undefined)) return cannotJudge(`output[].status absent from ${executionId}`);
  return `no output node of ${executionId} was read before it executed, nor twice once finish`;
}

/** The node statuses `reads` hold, or the blocked verdict of `id` when one is outside the enum. */
function listedOrBlocked(v: Visibility, id: ClauseId, reads: StatusRead[], what: string): boolean {
  const unlisted = reads.filter((r) => !NODE_STATUSES.includes(r.status));
  if (unlisted.length === 0) return true;
  v.blocked(id, {
    blockedBy: 'NODE-STATUS-ENUM',
    exchangeIds: [...new Set(unlisted.map((r) => r.ref))],
    reason: `${what}: node status ${[...new Set(unlisted.map((r) => r.status))].join(', ')}`,
  });
  return false;
}

/**
 * A file's producer must have finished: one still init, waiting or executing fails the clause. The output
 * is believed where it shows the node ended; where it shows it running (or not at all), the status read
 * after it decides. An output showing the node running beside its file while the read right after shows
 * it ended is recorded, not failed: its statuses and files may come from two queries, the statuses older
 * (the file was written on finishing). A producer that failed is recorded: "finished" may be read as
 * "ended" as well as "status finish".
 */
function checkProducerFinished(
  v: Visibility,
  file: string,
  nodeId: string,
  reads: StatusRead[],
  executionId: string,
  ref: string,
): void {
  if (!listedOrBlocked(v, 'OUTPUT-FILES-ONLY-AFTER-FINISH', reads, `file ${file} of node ${nodeId}`)) return;
  const what = `file ${file} of node ${nodeId}`;
  const inOutput = reads.find((r) => r.from === 'output');
  const after = reads.find((r) => r.from === 'after');
  const deciding = inOutput && TERMINAL.has(inOutput.status) ? inOutput : (after ?? inOutput!);
  if (deciding.status === 'failed') {
    v.observe('OUTPUT-FILES-ONLY-AFTER-FINISH', 'file of a node that failed', what, ref);
    return;
  }
  const running = !TERMINAL.has(deciding.status);
  if (!running && inOutput && deciding !== inOutput) {
    const lag = `the output lists it beside its node ${inOutput.status}; the status read right after shows ${deciding.status}`;
    v.observe(
      'OUTPUT-FILES-ONLY-AFTER-FINISH',
      'node status in the output older than its files',
      `${what}: ${lag}`,
      ref,
    );
    return;
  }
  v.check('OUTPUT-FILES-ONLY-AFTER-FINISH', !running, {
    message: `${what} in the output of ${executionId}`,
    expected: 'its node has finished (in the output, or in the status read right after it)',
    actual: `node status ${[...new Set(reads.map((r) => r.status))].join(' / ')}`,
    exchangeId: ref,
  });
}

/**
 * A file that names no producing node (files[].nodeId is optional): whichever node produced it has
 * finished when every node of the execution has; otherwise its producer cannot be told.
 */
function checkUnnamedProducer(
  v: Visibility,
  file: string,
  nodes: Map<string, StatusRead[]>,
  executionId: string,
  ref: string,
  notJudged: Set<string>,
): void {
  const reads = [...nodes.values()];
  const allFinished = reads.length > 0 && reads.every((r) => r.length > 0 && r.every((x) => x.status === 'finish'));
  if (!allFinished) {
    notJudged.add(
      cannotJudge(`file ${file} names no producing node (files[].nodeId absent) and not every node reads finish`),
    );
    return;
  }
  v.check('OUTPUT-FILES-ONLY-AFTER-FINISH', true, {
    message: `file ${file} (no nodeId) in the output of ${executionId}`,
    expected: 'its node is finish',
    actual: 'every node of the execution is finish',
    exchangeId: ref,
  });
}

/** Parsed date-time and whether it carries fractions of a second (precision decides the tolerance). */
function instant(value: string | undefined): { ms: number; fine: boolean } | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : { ms, fine: /\d{2}:\d{2}:\d{2}\.\d/.test(value) };
}

/**
 * TIMES-ORDERED: per output node startTime ≤ endTime, and no node starts before the execution's
 * createdAt. Times of different precision (whole seconds against milliseconds) are compared with a
 * second of tolerance. The times are optional: without a pair to compare the clause is not run. An
 * unreadable time is DATETIME-FORMAT's finding, on the answer that carries it.
 */
export const checkTimesOrdered = outputVisibility.judges((v, executionId: string, snaps: Snapshot[]): void => {
  const problems = new Set<string>();
  const problemRefs = new Set<string>();
  let judged = false;
  let unreadable: { text: string; refs: Set<string> } | undefined;
  const unreadableAt = (text: string, ref: string) => {
    unreadable ??= { text, refs: new Set() };
    unreadable.refs.add(ref);
  };
  for (const s of snaps) {
    const created = instant(s.status.createdAt);
    if (s.status.createdAt !== undefined && !created) unreadableAt(`createdAt ${s.status.createdAt}`, statusRef(s));
    const outRef = s.outputExchange?.record.id;
    for (const n of s.output?.output ?? []) {
      const [start, end] = [instant(n.startTime), instant(n.endTime)];
      if (outRef && ((n.startTime !== undefined && !start) || (n.endTime !== undefined && !end)))
        unreadableAt(`node ${n.nodeId}: ${n.startTime} / ${n.endTime}`, outRef);
      const slack = (a: { fine: boolean }, b: { fine: boolean }) => (a.fine && b.fine ? 0 : 1000);
      if (start && end) {
        judged = true;
        if (end.ms + slack(start, end) < start.ms) {
          problems.add(`node ${n.nodeId} ends (${n.endTime}) before it starts (${n.startTime})`);
          if (outRef) problemRefs.add(outRef);
        }
      }
      if (start && created) {
        judged = true;
        if (start.ms + slack(start, created) < created.ms) {
          problems.add(
            `node ${n.nodeId} starts (${n.startTime}) before the execution was created (${s.status.createdAt})`,
          );
          if (outRef) problemRefs.add(outRef);
          problemRefs.add(statusRef(s));
        }
      }
    }
  }
  const ref = snaps[snaps.length - 1]?.outputExchange?.record.id;
  if (!judged) {
    if (unreadable)
      v.blocked('TIMES-ORDERED', {
        blockedBy: 'DATETIME-FORMAT',
        exchangeIds: [...unreadable.refs],
        reason: `execution ${executionId}: ${unreadable.text}`,
      });
    else
      v.notRun(
        'TIMES-ORDERED',
        cannotJudge(`output[].startTime and endTime, or createdAt, absent from the answers about ${executionId}`),
      );
    return;
  }
  v.check('TIMES-ORDERED', problems.size === 0, {
    message: `start, end and creation times of ${executionId}`,
    expected: 'createdAt ≤ startTime ≤ endTime',
    actual: [...problems].slice(0, 3).join('; ') || 'ordered',
    exchangeId: problemRefs.size ? [...problemRefs][0] : ref,
    exchangeIds: problemRefs.size ? [...problemRefs] : undefined,
  });
});

function contentOf(n: OutputNode): string {
  return (n.messages ?? []).map((m) => `${m.messageId}:${m.content ?? ''}|${m.reasoningContent ?? ''}`).join('\n');
}

/** OUTPUT-PARTIAL-CONTENT for one output node as read once; returns whether it judged anything. */
function checkNodeContent(
  v: Visibility,
  n: OutputNode,
  finished: Map<string, string>,
  executionId: string,
  ref: string,
): boolean {
  const hasContent = (n.messages ?? []).some((m) => (m.content ?? '') !== '' || (m.reasoningContent ?? '') !== '');
  if (n.status === 'init' || n.status === 'waiting') {
    v.check('OUTPUT-PARTIAL-CONTENT', !hasContent, {
      message: `node ${n.nodeId} of ${executionId} is ${n.status}`,
      expected: 'no message content before the node executes',
      actual: hasContent ? 'content present' : 'none',
      exchangeId: ref,
    });
    return true;
  }
  if (n.status !== 'finish') return false;
  const now = contentOf(n);
  const before = finished.get(n.nodeId);
  if (before === undefined) {
    finished.set(n.nodeId, now);
    return false;
  }
  v.check('OUTPUT-PARTIAL-CONTENT', before === now, {
    message: `node ${n.nodeId} of ${executionId} was already finish`,
    expected: 'complete (unchanging) content once finish',
    actual: before === now ? 'unchanged' : 'content changed after finish',
    exchangeId: ref,
  });
  return true;
}
