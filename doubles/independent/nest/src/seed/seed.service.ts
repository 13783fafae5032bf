import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sha256Hex, stableId } from '../common/ids.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiKeyEntity, TenantEntity, WorkflowEntity, WorkflowTaskEntity } from '../database/entities/index.js';
import type { TaskBehaviour } from '../database/plan.types.js';
import { ExecutionRunner } from '../executions/execution-runner.service.js';
import { SEED_TENANTS, SeedTask } from './seed-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Canvas id of a seed workflow: stable across restarts. */
export function seedCanvasId(tenantId: string, key: string): string {
  return stableId('c', `${tenantId}/${key}`);
}

function behaviourOf(task: SeedTask): TaskBehaviour {
  return {
    messages: [
      ...(task.tool ? [{ type: 'tool' as const, content: task.tool }] : []),
      ...(task.ai ? [{ type: 'ai' as const, content: task.ai, ...(task.reasoning ? { reasoningContent: task.reasoning } : {}) }] : []),
    ],
    files: task.files ?? [],
    ...(task.fail ? { failure: { message: task.fail.message, atFraction: task.fail.at } } : {}),
  };
}

/**
 * Creates the two demo tenants, their API keys (from WF_KEY_A / WF_KEY_B) and
 * their workflows. Runs before the server starts listening. Idempotent: on a
 * persistent database, existing workflows are left as they are.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger(SeedService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly runner: ExecutionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const interrupted = await this.runner.failInterrupted();
    if (interrupted) {
      this.logger.warn(`Marked ${interrupted} execution(s) interrupted by a restart as failed`);
    }
    const now = Date.now();
    let created = 0;
    await this.dataSource.transaction(async (manager) => {
      for (const seed of SEED_TENANTS) {
        await manager.getRepository(TenantEntity).save({ id: seed.id, name: seed.name });
        const keys = manager.getRepository(ApiKeyEntity);
        await keys.delete({ tenantId: seed.id });
        const key = seed.keyEnv === 'A' ? this.config.keyTenantA : this.config.keyTenantB;
        await keys.save(keys.create({ tenantId: seed.id, keyHash: sha256Hex(key), label: `WF_KEY_${seed.keyEnv}` }));

        const workflows = manager.getRepository(WorkflowEntity);
        const tasks = manager.getRepository(WorkflowTaskEntity);
        for (const wf of seed.workflows) {
          const canvasId = seedCanvasId(seed.id, wf.key);
          if (await workflows.existsBy({ canvasId })) {
            continue;
          }
          const workflow = workflows.create({
            canvasId,
            tenantId: seed.id,
            title: wf.title,
            apiEnabled: wf.apiEnabled ?? true,
            variables: wf.variables ?? [],
            locale: 'en',
            createdAt: new Date(now - wf.createdDaysAgo * DAY_MS),
            updatedAt: new Date(now - wf.updatedDaysAgo * DAY_MS),
            tasks: wf.tasks.map((t, position) =>
              tasks.create({
                canvasId,
                taskId: t.id,
                position,
                title: t.title,
                prompt: t.prompt,
                toolsets: t.toolsets,
                dependentTasks: t.deps ?? [],
                durationMs: t.ms,
                behaviour: behaviourOf(t),
              }),
            ),
          });
          await workflows.save(workflow);
          created++;
        }
      }
    });
    this.logger.log(`Seed ready (${created} workflow(s) created)`);
  }
}
