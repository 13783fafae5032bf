import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { newId } from '../common/ids.js';
import {
  DriveFileEntity,
  ExecutionEntity,
  ExecutionMessageEntity,
  NodeExecutionEntity,
} from '../database/entities/index.js';
import type { MessageTemplate, NodeStatus } from '../database/plan.types.js';

/** Nominal delay between accepting a run and starting its first node. */
const QUEUE_DELAY_MS = 300;
/** Nominal interval between two progress updates of an executing node. */
const TICK_MS = 250;

export const ABORTED_BY_USER = 'Aborted by user (E3004: action was stopped)';

interface RunContext {
  executionId: string;
  tenantId: string;
  controller: AbortController;
  /** Set once the execution reached a final status; later writes are dropped. */
  ended: boolean;
}

type NodeOutcome = 'finish' | 'failed' | 'aborted';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The first `fraction` of a node's messages (reasoning first, then content), as streamed so far. */
export function partialMessages(templates: MessageTemplate[], fraction: number): MessageTemplate[] {
  const parts = templates.map((t) => ({
    type: t.type,
    reasoning: Array.from(t.reasoningContent ?? ''),
    content: Array.from(t.content),
  }));
  const total = parts.reduce((n, p) => n + p.reasoning.length + p.content.length, 0);
  let budget = fraction >= 1 ? total : Math.floor(total * fraction);
  const out: MessageTemplate[] = [];
  for (const p of parts) {
    if (budget <= 0) {
      break;
    }
    const r = Math.min(p.reasoning.length, budget);
    budget -= r;
    const c = Math.min(p.content.length, budget);
    budget -= c;
    out.push({
      type: p.type,
      content: p.content.slice(0, c).join(''),
      ...(p.reasoning.length ? { reasoningContent: p.reasoning.slice(0, r).join('') } : {}),
    });
  }
  return out;
}

/**
 * Executes workflow runs in the background, node by node, following task
 * dependencies (independent nodes run side by side). Every state change is
 * written to the database, so status and output polling see progress.
 * All writes of one execution are serialised through a per-execution lock,
 * which is what makes abort safe against a node that is just finishing.
 */
@Injectable()
export class ExecutionRunner implements OnApplicationShutdown {
  private readonly logger = new Logger(ExecutionRunner.name);
  private readonly active = new Map<string, RunContext>();
  private readonly locks = new Map<string, Promise<void>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(ExecutionEntity) private readonly executions: Repository<ExecutionEntity>,
    @InjectRepository(NodeExecutionEntity) private readonly nodes: Repository<NodeExecutionEntity>,
    @InjectRepository(ExecutionMessageEntity) private readonly messages: Repository<ExecutionMessageEntity>,
    @InjectRepository(DriveFileEntity) private readonly driveFiles: Repository<DriveFileEntity>,
  ) {}

  start(executionId: string, tenantId: string): void {
    const ctx: RunContext = { executionId, tenantId, controller: new AbortController(), ended: false };
    this.active.set(executionId, ctx);
    this.drive(ctx)
      .catch(async (err: unknown) => {
        this.logger.error(`Execution ${executionId} crashed: ${err instanceof Error ? err.stack : String(err)}`);
        await this.finalize(ctx, 'failed', 'Internal error while executing the node (E0000)').catch(() => undefined);
      })
      .finally(() => this.active.delete(executionId));
  }

  /**
   * Stops an execution: it becomes `failed`, its executing nodes `failed`
   * ("Aborted by user"), nodes not yet started `failed` ("Not executed").
   * Returns false when the execution had already ended (nothing changes).
   */
  async abort(executionId: string): Promise<boolean> {
    return this.withLock(executionId, async () => {
      const ctx = this.active.get(executionId);
      if (ctx) {
        ctx.ended = true;
        ctx.controller.abort();
        this.active.delete(executionId);
      }
      const execution = await this.executions.findOneBy({ executionId });
      if (!execution || execution.status === 'finish' || execution.status === 'failed') {
        return false;
      }
      await this.closeNodes(executionId, ABORTED_BY_USER, 'Not executed: the execution was aborted');
      await this.executions.update({ executionId }, { status: 'failed', endedAt: new Date(), updatedAt: new Date() });
      this.logger.log(`Execution ${executionId} aborted`);
      return true;
    });
  }

  /** Marks executions left running by a previous process as failed (persistent databases only). */
  async failInterrupted(): Promise<number> {
    const stale = await this.executions.find({ where: { status: In(['init', 'executing']) }, select: { executionId: true } });
    for (const { executionId } of stale) {
      await this.closeNodes(executionId, 'Interrupted: the service restarted', 'Not executed: the service restarted');
      await this.executions.update({ executionId }, { status: 'failed', endedAt: new Date(), updatedAt: new Date() });
    }
    return stale.length;
  }

  onApplicationShutdown(): void {
    for (const ctx of this.active.values()) {
      ctx.ended = true;
      ctx.controller.abort();
    }
  }

  private scaled(ms: number): number {
    return ms * this.config.speed;
  }

  private async withLock<T>(executionId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(executionId) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.locks.set(executionId, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(executionId) === tail) {
        this.locks.delete(executionId);
      }
    }
  }

  private async drive(ctx: RunContext): Promise<void> {
    const { executionId, controller } = ctx;
    await sleep(this.scaled(QUEUE_DELAY_MS), controller.signal);

    const nodes = await this.withLock(executionId, async () => {
      if (ctx.ended) {
        return null;
      }
      const now = new Date();
      await this.executions.update({ executionId }, { status: 'executing', startedAt: now, updatedAt: now });
      await this.nodes.update({ executionId }, { status: 'waiting' });
      return this.nodes.find({ where: { executionId }, order: { position: 'ASC' } });
    });
    if (!nodes) {
      return;
    }

    const state = new Map<string, NodeStatus>(nodes.map((n) => [n.nodeId, 'waiting']));
    const running = new Map<string, Promise<{ node: NodeExecutionEntity; outcome: NodeOutcome }>>();
    let failedNode: NodeExecutionEntity | undefined;

    while (!ctx.ended) {
      for (const node of nodes) {
        const ready =
          state.get(node.nodeId) === 'waiting' &&
          node.dependsOn.every((dep) => !state.has(dep) || state.get(dep) === 'finish');
        if (ready) {
          state.set(node.nodeId, 'executing');
          running.set(node.nodeId, this.runNode(ctx, node).then((outcome) => ({ node, outcome })));
        }
      }
      if (running.size === 0) {
        break;
      }
      const { node, outcome } = await Promise.race(running.values());
      running.delete(node.nodeId);
      if (outcome === 'aborted') {
        return;
      }
      state.set(node.nodeId, outcome);
      if (outcome === 'failed') {
        failedNode = node;
        break;
      }
    }
    if (ctx.ended) {
      return;
    }
    if (failedNode) {
      await this.finalize(
        ctx,
        'failed',
        `Stopped: node "${failedNode.title}" failed`,
        `Not executed: node "${failedNode.title}" failed`,
      );
    } else if ([...state.values()].some((s) => s !== 'finish')) {
      await this.finalize(ctx, 'failed', 'Not executed: unresolvable task dependencies');
    } else {
      await this.finalize(ctx, 'finish');
    }
  }

  private async finalize(
    ctx: RunContext,
    status: 'finish' | 'failed',
    executingMessage = 'Stopped',
    pendingMessage = executingMessage,
  ): Promise<void> {
    await this.withLock(ctx.executionId, async () => {
      if (ctx.ended) {
        return;
      }
      ctx.ended = true;
      ctx.controller.abort();
      if (status === 'failed') {
        await this.closeNodes(ctx.executionId, executingMessage, pendingMessage);
      }
      const now = new Date();
      await this.executions.update({ executionId: ctx.executionId }, { status, endedAt: now, updatedAt: now });
      this.logger.log(`Execution ${ctx.executionId} ended: ${status}`);
    });
  }

  /** Moves every node that has not ended to `failed` with the given reason. */
  private async closeNodes(executionId: string, executingMessage: string, pendingMessage: string): Promise<void> {
    const now = new Date();
    await this.nodes.update(
      { executionId, status: 'executing' },
      { status: 'failed', errorMessage: executingMessage, endTime: now },
    );
    await this.nodes.update(
      { executionId, status: In(['init', 'waiting']) },
      { status: 'failed', errorMessage: pendingMessage },
    );
  }

  private async runNode(ctx: RunContext, node: NodeExecutionEntity): Promise<NodeOutcome> {
    const { executionId, controller } = ctx;
    const steps = Math.max(2, Math.ceil(node.durationMs / TICK_MS));
    const stepMs = this.scaled(node.durationMs) / steps;
    const failure = node.behaviour.failure;
    const rows: ExecutionMessageEntity[] = [];

    const started = await this.withLock(executionId, async () => {
      if (ctx.ended) {
        return false;
      }
      await this.nodes.update({ pk: node.pk }, { status: 'executing', startTime: new Date() });
      await this.touch(executionId);
      return true;
    });
    if (!started) {
      return 'aborted';
    }

    for (let step = 1; step <= steps; step++) {
      await sleep(stepMs, controller.signal);
      if (ctx.ended) {
        return 'aborted';
      }
      const fraction = step / steps;
      if (failure && fraction >= failure.atFraction) {
        const failed = await this.withLock(executionId, async () => {
          if (ctx.ended) {
            return false;
          }
          await this.syncMessages(node, rows, partialMessages(node.behaviour.messages, failure.atFraction));
          await this.nodes.update({ pk: node.pk }, { status: 'failed', errorMessage: failure.message, endTime: new Date() });
          return true;
        });
        return failed ? 'failed' : 'aborted';
      }
      if (step < steps) {
        const ok = await this.withLock(executionId, async () => {
          if (ctx.ended) {
            return false;
          }
          await this.syncMessages(node, rows, partialMessages(node.behaviour.messages, fraction));
          return true;
        });
        if (!ok) {
          return 'aborted';
        }
      }
    }

    const finished = await this.withLock(executionId, async () => {
      if (ctx.ended) {
        return false;
      }
      await this.syncMessages(node, rows, node.behaviour.messages);
      const now = new Date();
      if (node.behaviour.files.length) {
        await this.driveFiles.save(
          node.behaviour.files.map((f) => {
            const content = Buffer.from(f.content, 'utf8');
            return this.driveFiles.create({
              fileId: newId('df'),
              tenantId: ctx.tenantId,
              executionId,
              nodeId: node.nodeId,
              name: f.name,
              type: f.type,
              size: content.length,
              content,
              createdAt: now,
            });
          }),
        );
      }
      await this.nodes.update({ pk: node.pk }, { status: 'finish', endTime: now });
      await this.touch(executionId);
      return true;
    });
    return finished ? 'finish' : 'aborted';
  }

  private async touch(executionId: string): Promise<void> {
    await this.executions.update({ executionId }, { updatedAt: new Date() });
  }

  /** Writes the streamed-so-far messages of a node: new ones are inserted, grown ones updated. */
  private async syncMessages(node: NodeExecutionEntity, rows: ExecutionMessageEntity[], rendered: MessageTemplate[]) {
    const changed: ExecutionMessageEntity[] = [];
    rendered.forEach((m, i) => {
      let row = rows[i];
      const isNew = !row;
      if (isNew) {
        row = this.messages.create({
          messageId: newId('msg'),
          nodePk: node.pk,
          position: i,
          type: m.type,
          content: '',
          reasoningContent: null,
        });
        rows[i] = row;
      }
      const reasoning = m.reasoningContent ?? null;
      if (isNew || row.content !== m.content || row.reasoningContent !== reasoning) {
        row.content = m.content;
        row.reasoningContent = reasoning;
        changed.push(row);
      }
    });
    if (changed.length) {
      await this.messages.save(changed);
    }
  }
}
