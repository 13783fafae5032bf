/**
 * What the target sends: model records → wire shapes of §2. Kept in one place so every route
 * serialises the same way.
 */
import type { components } from '../contracts/generated/api-types.ts';
import type { Canvas, Execution, NodeRun, WorkflowPlan } from './model.ts';

export type Schemas = components['schemas'];

export function planView(plan: WorkflowPlan): Schemas['WorkflowPlan'] {
  return {
    title: plan.title,
    tasks: plan.tasks.map((t) => ({
      id: t.id,
      title: t.title,
      prompt: t.prompt,
      toolsets: [...t.toolsets],
      dependentTasks: [...t.dependentTasks],
    })),
    variables: plan.variables.map((v) => ({
      name: v.name,
      variableType: v.variableType,
      required: v.required,
      ...(v.variableType === 'option' ? { options: [...(v.options ?? [])] } : {}),
    })),
  };
}

export function searchItemView(c: Canvas): Schemas['SearchItem'] {
  return { canvasId: c.canvasId, title: c.plan.title };
}

/** §4.1: the run response carries only executionId and status. */
export function runView(e: Execution): Schemas['RunData'] {
  return { executionId: e.executionId, status: e.status };
}

export function statusView(e: Execution): Schemas['StatusData'] {
  return {
    executionId: e.executionId,
    status: e.status,
    nodeExecutions: e.nodes.map((n) => ({
      nodeId: n.nodeId,
      status: n.status,
      title: n.title,
      ...(n.errorMessage !== undefined ? { errorMessage: n.errorMessage } : {}),
    })),
    createdAt: e.createdAt.toISOString(),
  };
}

export function outputView(e: Execution, fileUrl: (fileId: string, name: string) => string): Schemas['OutputData'] {
  return {
    output: e.nodes.map(nodeOutputView),
    // Files exist only once their node finished (engine publishes them on finish).
    files: e.files.map((f) => ({
      name: f.name,
      type: f.type,
      size: f.data.byteLength,
      nodeId: f.nodeId,
      url: fileUrl(f.fileId, f.name),
    })),
  };
}

function nodeOutputView(n: NodeRun): Schemas['OutputNode'] {
  return {
    nodeId: n.nodeId,
    title: n.title,
    status: n.status,
    ...(n.errorMessage !== undefined ? { errorMessage: n.errorMessage } : {}),
    ...(n.startTime ? { startTime: n.startTime.toISOString() } : {}),
    ...(n.endTime ? { endTime: n.endTime.toISOString() } : {}),
    messages: n.messages.map((m) => ({
      messageId: m.messageId,
      type: m.type,
      content: m.content,
      ...(m.reasoningContent !== undefined ? { reasoningContent: m.reasoningContent } : {}),
    })),
  };
}
