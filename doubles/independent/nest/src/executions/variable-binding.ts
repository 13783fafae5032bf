import { ApiException } from '../common/api.exception.js';
import { ErrorCode, MAX_CONTENT_CHARS } from '../common/error-codes.js';
import type { BoundVariable, TaskBehaviour, WorkflowVariableDef } from '../database/plan.types.js';

export interface FileLookup {
  (fileKeys: string[]): Promise<{ fileKey: string; fileName: string }[]>;
}

function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * Checks the given values against the workflow's declared variables and
 * resolves them: required variables must be present, string variables take a
 * string/number/boolean, option variables one (or a list) of the declared
 * options, resource variables a fileKey (or a list of them) of the caller's
 * uploads. Names that the workflow does not declare are ignored.
 */
export async function bindVariables(
  defs: WorkflowVariableDef[],
  provided: Record<string, unknown>,
  lookupFiles: FileLookup,
): Promise<{ bound: BoundVariable[]; fileKeys: string[] }> {
  const problems: string[] = [];
  let tooLong: string | undefined;
  const pendingFiles: { def: WorkflowVariableDef; keys: string[] }[] = [];
  const bound: BoundVariable[] = [];

  for (const def of defs) {
    const raw = provided[def.name];
    if (isBlank(raw)) {
      if (def.required) {
        problems.push(`variable "${def.name}" is required`);
      } else {
        bound.push({ name: def.name, variableType: def.variableType, display: def.fallback ?? '', value: null });
      }
      continue;
    }
    switch (def.variableType) {
      case 'string': {
        if (!isScalar(raw)) {
          problems.push(`variable "${def.name}" must be a string`);
          break;
        }
        const text = String(raw);
        if (text.length > MAX_CONTENT_CHARS) {
          tooLong = `variable "${def.name}" is too long; maximum length 100k characters`;
          break;
        }
        bound.push({ name: def.name, variableType: 'string', display: text, value: text });
        break;
      }
      case 'option': {
        const values = Array.isArray(raw) ? raw : [raw];
        const options = def.options ?? [];
        if (!values.every((v) => typeof v === 'string' && options.includes(v))) {
          problems.push(`variable "${def.name}" must be one of: ${options.join(', ')}`);
          break;
        }
        bound.push({
          name: def.name,
          variableType: 'option',
          display: values.join(', '),
          value: Array.isArray(raw) ? values : raw,
        });
        break;
      }
      case 'resource': {
        const keys = Array.isArray(raw) ? raw : [raw];
        if (!keys.every((k) => typeof k === 'string' && k.trim() !== '')) {
          problems.push(`variable "${def.name}" must be a fileKey (or an array of fileKeys) from /openapi/files/upload`);
          break;
        }
        pendingFiles.push({ def, keys: keys as string[] });
        break;
      }
    }
  }
  if (tooLong) {
    throw ApiException.badRequest(tooLong, ErrorCode.CONTENT_TOO_LARGE);
  }
  if (problems.length) {
    throw ApiException.badRequest(`Invalid workflow variables: ${problems.join('; ')}`);
  }

  const fileKeys: string[] = [];
  for (const { def, keys } of pendingFiles) {
    const files = await lookupFiles(keys);
    fileKeys.push(...keys);
    bound.push({
      name: def.name,
      variableType: 'resource',
      display: files.map((f) => f.fileName).join(', '),
      value: files.map((f) => ({ fileKey: f.fileKey, fileName: f.fileName })),
    });
  }
  // Keep the declaration order.
  const order = new Map(defs.map((d, i) => [d.name, i]));
  bound.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
  return { bound, fileKeys };
}

export function fillTemplate(text: string, variables: BoundVariable[]): string {
  const byName = new Map(variables.map((v) => [v.name, v.display]));
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => byName.get(name) ?? whole);
}

export function fillBehaviour(behaviour: TaskBehaviour, variables: BoundVariable[]): TaskBehaviour {
  return {
    messages: behaviour.messages.map((m) => ({
      type: m.type,
      content: fillTemplate(m.content, variables),
      ...(m.reasoningContent ? { reasoningContent: fillTemplate(m.reasoningContent, variables) } : {}),
    })),
    files: behaviour.files.map((f) => ({
      name: fillTemplate(f.name, variables),
      type: f.type,
      content: fillTemplate(f.content, variables),
    })),
    ...(behaviour.failure
      ? { failure: { message: fillTemplate(behaviour.failure.message, variables), atFraction: behaviour.failure.atFraction } }
      : {}),
  };
}
