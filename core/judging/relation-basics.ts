/**
 * What the relation checks share: terminal statuses, how a node corresponds to a task, and the words of
 * a clause left unjudged for want of data the specification makes optional.
 */
import type { Snapshot } from './payloads.ts';

export const TERMINAL = new Set(['finish', 'failed']);

/** The node's id is the task's id, or derived from it (`node_<taskId>`). */
export function idNamesTask(node: { nodeId: string }, task: { id: string }): boolean {
  return node.nodeId === task.id || node.nodeId.endsWith(task.id);
}

/** Whether a node of an execution corresponds to a task of the plan (same id, id-derived, or same title). */
export function nodeMatchesTask(
  node: { nodeId: string; title?: string },
  task: { id: string; title: string },
): boolean {
  return idNamesTask(node, task) || (node.title !== undefined && node.title === task.title);
}

/** The reason a clause is not run: data it needs is absent, as the specification allows. */
export function cannotJudge(what: string): string {
  return `cannot judge: ${what}`;
}

/** The status exchange a snapshot was read from. */
export const statusRef = (s: Snapshot) => s.statusExchange.record.id;
