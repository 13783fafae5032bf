/** Shapes shared by stored workflows, executions and the plan generator. */

export const VARIABLE_TYPES = ['string', 'option', 'resource'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

export interface WorkflowVariableDef {
  name: string;
  variableType: VariableType;
  required: boolean;
  options?: string[];
  /** Text used in outputs when an optional variable is not given (not exposed). */
  fallback?: string;
}

export type MessageType = 'ai' | 'tool';

export interface MessageTemplate {
  type: MessageType;
  content: string;
  reasoningContent?: string;
}

export interface FileTemplate {
  name: string;
  /** MIME type of the produced file. */
  type: string;
  content: string;
}

/**
 * What a task does when it runs: the messages it produces (placeholders such
 * as {{region}} are filled from the run's variables), the files it writes
 * and, optionally, the point at which it fails.
 */
export interface TaskBehaviour {
  messages: MessageTemplate[];
  files: FileTemplate[];
  failure?: { message: string; atFraction: number };
}

export const EXECUTION_STATUSES = ['init', 'executing', 'finish', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const NODE_STATUSES = ['init', 'waiting', 'executing', 'finish', 'failed'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** A resolved run-time value of one variable. */
export interface BoundVariable {
  name: string;
  variableType: VariableType;
  /** Text used in prompts and outputs. */
  display: string;
  value: unknown;
}
