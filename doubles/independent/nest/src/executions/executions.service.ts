import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiException } from '../common/api.exception.js';
import { ErrorCode } from '../common/error-codes.js';
import { newId } from '../common/ids.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DriveFileEntity, ExecutionEntity, NodeExecutionEntity } from '../database/entities/index.js';
import type { ExecutionStatus, MessageType, NodeStatus } from '../database/plan.types.js';
import { FilesService } from '../files/files.service.js';
import { sortTasks } from '../workflows/plan.mapper.js';
import { WorkflowsService } from '../workflows/workflows.service.js';
import { ExecutionRunner } from './execution-runner.service.js';
import { bindVariables, fillBehaviour } from './variable-binding.js';

export interface RunResult {
  executionId: string;
  status: ExecutionStatus;
}

export interface StatusView {
  executionId: string;
  status: ExecutionStatus;
  nodeExecutions: { nodeId: string; status: NodeStatus; title: string; errorMessage?: string }[];
  createdAt: string;
}

export interface OutputView {
  output: {
    nodeId: string;
    title: string;
    status: NodeStatus;
    errorMessage?: string;
    startTime?: string;
    endTime?: string;
    messages: { messageId: string; content: string; reasoningContent?: string; type: MessageType }[];
  }[];
  files: { name: string; type: string; size: number; nodeId: string; url: string }[];
}

@Injectable()
export class ExecutionsService {
  private readonly logger = new Logger(ExecutionsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(ExecutionEntity) private readonly executions: Repository<ExecutionEntity>,
    @InjectRepository(NodeExecutionEntity) private readonly nodes: Repository<NodeExecutionEntity>,
    @InjectRepository(DriveFileEntity) private readonly driveFiles: Repository<DriveFileEntity>,
    private readonly workflows: WorkflowsService,
    private readonly files: FilesService,
    private readonly runner: ExecutionRunner,
  ) {}

  /** 4.1 Checks (404 → 403 → 400), records the execution with a snapshot of the plan, starts it. */
  async run(tenantId: string, canvasId: string, provided: Record<string, unknown>): Promise<RunResult> {
    const workflow = await this.workflows.getOwned(tenantId, canvasId);
    if (!workflow.apiEnabled) {
      throw new ApiException(
        HttpStatus.FORBIDDEN,
        ErrorCode.WORKFLOW_API_DISABLED,
        `The workflow API is disabled for workflow ${canvasId}`,
      );
    }
    const { bound, fileKeys } = await bindVariables(workflow.variables, provided, (keys) =>
      this.files.resolveKeys(tenantId, keys),
    );
    const now = new Date();
    const execution = this.executions.create({
      executionId: newId('we'),
      tenantId,
      canvasId,
      title: workflow.title,
      status: 'init',
      variables: bound,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      endedAt: null,
      nodes: sortTasks(workflow.tasks).map((task, position) =>
        this.nodes.create({
          nodeId: task.taskId,
          position,
          title: task.title,
          status: 'init',
          errorMessage: null,
          startTime: null,
          endTime: null,
          dependsOn: task.dependentTasks,
          durationMs: task.durationMs,
          behaviour: fillBehaviour(task.behaviour, bound),
        }),
      ),
    });
    await this.executions.save(execution);
    await this.files.markUsed(fileKeys);
    this.runner.start(execution.executionId, tenantId);
    this.logger.log(`Execution ${execution.executionId} of ${canvasId} accepted`);
    return { executionId: execution.executionId, status: execution.status };
  }

  /** 4.2 Abort. Accepted (200) also when the execution has already ended; nothing changes then. */
  async abort(tenantId: string, executionId: string): Promise<void> {
    await this.getOwned(tenantId, executionId);
    await this.runner.abort(executionId);
  }

  /** 4.4 Status with node statuses. */
  async status(tenantId: string, executionId: string): Promise<StatusView> {
    const execution = await this.getOwned(tenantId, executionId);
    const nodes = await this.nodes.find({ where: { executionId }, order: { position: 'ASC' } });
    return {
      executionId: execution.executionId,
      status: execution.status,
      nodeExecutions: nodes.map((n) => ({
        nodeId: n.nodeId,
        status: n.status,
        title: n.title,
        ...(n.errorMessage ? { errorMessage: n.errorMessage } : {}),
      })),
      createdAt: execution.createdAt.toISOString(),
    };
  }

  /** 4.3 Output: every node with the messages streamed so far, and the files of finished nodes. */
  async output(tenantId: string, executionId: string): Promise<OutputView> {
    await this.getOwned(tenantId, executionId);
    const nodes = await this.nodes.find({
      where: { executionId },
      relations: { messages: true },
      order: { position: 'ASC', messages: { position: 'ASC' } },
    });
    const files = await this.driveFiles.find({
      where: { executionId, tenantId },
      select: { fileId: true, name: true, type: true, size: true, nodeId: true, createdAt: true },
      order: { createdAt: 'ASC', name: 'ASC' },
    });
    return {
      output: nodes.map((n) => ({
        nodeId: n.nodeId,
        title: n.title,
        status: n.status,
        ...(n.errorMessage ? { errorMessage: n.errorMessage } : {}),
        ...(n.startTime ? { startTime: n.startTime.toISOString() } : {}),
        ...(n.endTime ? { endTime: n.endTime.toISOString() } : {}),
        messages: n.messages.map((m) => ({
          messageId: m.messageId,
          content: m.content,
          ...(m.reasoningContent ? { reasoningContent: m.reasoningContent } : {}),
          type: m.type,
        })),
      })),
      files: files.map((f) => ({
        name: f.name,
        type: f.type,
        size: f.size,
        nodeId: f.nodeId,
        url: `${this.config.publicBaseUrl}/openapi/drive/files/${f.fileId}`,
      })),
    };
  }

  private async getOwned(tenantId: string, executionId: string): Promise<ExecutionEntity> {
    const execution = await this.executions.findOneBy({ executionId, tenantId });
    if (!execution) {
      throw ApiException.executionNotFound(executionId);
    }
    return execution;
  }
}
