import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/api.exception.js';
import { ErrorCode } from '../common/error-codes.js';
import { newId } from '../common/ids.js';
import { WorkflowEntity, WorkflowTaskEntity } from '../database/entities/index.js';
import { toPlanView, WorkflowPlanView } from '../workflows/plan.mapper.js';
import { GenerateWorkflowDto } from './dto/generate-workflow.dto.js';
import { GeneratedPlan, generatePlan, GenerationError } from './plan-generator.js';

@Injectable()
export class CopilotService {
  private readonly logger = new Logger(CopilotService.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * 4.8 Generates a plan and stores it: on the given canvas (replacing its
   * title, tasks and variables) or on a new canvas of the caller.
   */
  async generate(tenantId: string, dto: GenerateWorkflowDto): Promise<{ canvasId: string; workflowPlan: WorkflowPlanView }> {
    return this.dataSource.transaction(async (manager) => {
      const workflows = manager.getRepository(WorkflowEntity);
      const tasks = manager.getRepository(WorkflowTaskEntity);
      let workflow: WorkflowEntity | null = null;
      if (dto.canvasId !== undefined) {
        workflow = await workflows.findOneBy({ canvasId: dto.canvasId, tenantId });
        if (!workflow) {
          throw ApiException.canvasNotFound(dto.canvasId);
        }
      }

      let plan: GeneratedPlan;
      try {
        plan = generatePlan(dto.query, dto.locale);
      } catch (err) {
        if (err instanceof GenerationError) {
          throw ApiException.badRequest(err.message, ErrorCode.GENERATION_FAILED, { modelResponse: err.modelResponse });
        }
        throw err;
      }

      if (workflow) {
        await tasks.delete({ canvasId: workflow.canvasId });
        workflow.title = plan.title;
        workflow.variables = plan.variables;
        workflow.locale = dto.locale ?? null;
        workflow.updatedAt = new Date();
      } else {
        const now = new Date();
        workflow = workflows.create({
          canvasId: newId('c'),
          tenantId,
          title: plan.title,
          apiEnabled: true,
          variables: plan.variables,
          locale: dto.locale ?? null,
          createdAt: now,
          updatedAt: now,
        });
      }
      workflow.tasks = plan.tasks.map((t, position) =>
        tasks.create({
          canvasId: workflow.canvasId,
          taskId: t.taskId,
          position,
          title: t.title,
          prompt: t.prompt,
          toolsets: t.toolsets,
          dependentTasks: t.dependentTasks,
          durationMs: t.durationMs,
          behaviour: t.behaviour,
        }),
      );
      await workflows.save(workflow);
      this.logger.log(`Generated plan with ${plan.tasks.length} task(s) on ${workflow.canvasId}`);
      return { canvasId: workflow.canvasId, workflowPlan: toPlanView(workflow) };
    });
  }
}
