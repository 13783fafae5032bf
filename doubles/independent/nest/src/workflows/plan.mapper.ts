import type { WorkflowEntity, WorkflowTaskEntity } from '../database/entities/index.js';
import type { VariableType } from '../database/plan.types.js';

/** Workflow plan as exposed by the API (section 2.5). */
export interface WorkflowPlanView {
  title: string;
  tasks: {
    id: string;
    title: string;
    prompt: string;
    toolsets: string[];
    dependentTasks: string[];
  }[];
  variables: {
    name: string;
    variableType: VariableType;
    required: boolean;
    options?: string[];
  }[];
}

export function sortTasks(tasks: WorkflowTaskEntity[]): WorkflowTaskEntity[] {
  return [...tasks].sort((a, b) => a.position - b.position);
}

export function toPlanView(workflow: WorkflowEntity): WorkflowPlanView {
  return {
    title: workflow.title,
    tasks: sortTasks(workflow.tasks ?? []).map((task) => ({
      id: task.taskId,
      title: task.title,
      prompt: task.prompt,
      toolsets: task.toolsets,
      dependentTasks: task.dependentTasks,
    })),
    variables: workflow.variables.map((v) => ({
      name: v.name,
      variableType: v.variableType,
      required: v.required,
      ...(v.variableType === 'option' ? { options: v.options ?? [] } : {}),
    })),
  };
}
