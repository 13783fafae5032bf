/**
 * Faults already seen in this run, shared by every test worker, so that a broken operation costs its
 * deadline once: a later call of an operation whose answer never came (or broke off) is answered at once
 * without being sent (client.ts), and an execution showing the state that kept an earlier one from ever
 * finishing is not waited for again (poll.ts). Every stop they cause names the same first fault, so the
 * report reads one finding, not one per test that needed the operation.
 *
 * Workers are separate processes: each fault is one line appended to a file of the run's evidence
 * folder, named for the run as discovery's is (shared-by-workers.ts), and read again whenever it has
 * grown. Two workers meeting the same fault at the same moment may both append; the first line for an
 * operation is the one in force, and the one every stop names.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OperationId } from '../../contracts/check.ts';
import { runFileStem } from './shared-by-workers.ts';

/**
 * What a fault keeps from being done again: any call of the operation (`call`: no answer came within
 * the deadline, or it broke off), or following an execution to its end (`end`: executions of this target
 * stop changing short of a terminal status).
 */
export type FaultScope = 'call' | 'end';

export interface FaultSeen {
  operation: OperationId;
  scope: FaultScope;
  /** A transport fault kind (timeout, connection-reset, …), or `cannot-finish`. */
  kind: string;
  message: string;
  /** The clause its first occurrence failed; absent when it met a limit of the harness (its deadline). */
  clause?: ClauseId;
  /** The exchange that showed it: the evidence of every stop it causes. */
  exchangeId?: string;
  /** For `end`: the execution status the executions stay in. */
  status?: string;
  at: string;
}

/** Not `.jsonl`: the evidence reader takes every such file of the folder as evidence records. */
const EXTENSION = '.ndjson';

export class FaultLog {
  private readonly file: string;
  /** Size of the file when last read; its faults are re-read when it differs. */
  private size = -1;
  private faults: FaultSeen[] = [];

  constructor(dir: string) {
    this.file = `${runFileStem(dir, 'faults-seen')}${EXTENSION}`;
  }

  /** The fault in force for this operation and scope, when one was seen in this run by any worker. */
  find(operation: OperationId, scope: FaultScope): FaultSeen | undefined {
    this.refresh();
    return this.faults.find((f) => f.operation === operation && f.scope === scope);
  }

  /** Records a fault unless one is in force for its operation and scope already; returns the one in force. */
  record(fault: FaultSeen): FaultSeen {
    const known = this.find(fault.operation, fault.scope);
    if (known) return known;
    mkdirSync(dirname(this.file), { recursive: true });
    // One short append: whole lines, even with several workers appending at once.
    appendFileSync(this.file, `${JSON.stringify(fault)}\n`);
    return this.find(fault.operation, fault.scope) ?? fault;
  }

  private refresh(): void {
    const size = statSync(this.file, { throwIfNoEntry: false })?.size;
    if (size === undefined || size === this.size) return;
    this.size = size;
    this.faults = readFileSync(this.file, 'utf8')
      .split('\n')
      .flatMap((line) => {
        if (line.trim() === '') return [];
        try {
          return [JSON.parse(line) as FaultSeen];
        } catch {
          // A line another worker is still writing: read again once the file grows.
          return [];
        }
      });
  }
}

const logs = new Map<string, FaultLog>();

/** The faults seen in this run whose evidence goes to `evidenceDir`. */
export function faultsSeen(evidenceDir: string): FaultLog {
  let log = logs.get(evidenceDir);
  if (!log) {
    log = new FaultLog(evidenceDir);
    logs.set(evidenceDir, log);
  }
  return log;
}

/**
 * How every stop caused by the fault reads: the same words wherever it stops something, with the
 * exchange that showed it.
 */
export function describeFault(f: FaultSeen): string {
  const where = f.exchangeId ? `; exchange ${f.exchangeId}` : '';
  if (f.scope === 'end') return `executions cannot finish on this target: ${f.message}${where}`;
  const whose = f.clause
    ? `failed ${f.clause}`
    : `ran into the harness's request deadline (a limit of the harness, not a failure of the target)`;
  return `${f.operation} ${whose} in this run and is not asked again: ${f.kind}: ${f.message}${where}`;
}
