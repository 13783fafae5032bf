import { ApiKeyEntity } from './api-key.entity.js';
import { DriveFileEntity } from './drive-file.entity.js';
import { ExecutionEntity, ExecutionMessageEntity, NodeExecutionEntity } from './execution.entity.js';
import { TenantEntity } from './tenant.entity.js';
import { UploadedFileEntity } from './uploaded-file.entity.js';
import { WorkflowEntity, WorkflowTaskEntity } from './workflow.entity.js';

export {
  ApiKeyEntity,
  DriveFileEntity,
  ExecutionEntity,
  ExecutionMessageEntity,
  NodeExecutionEntity,
  TenantEntity,
  UploadedFileEntity,
  WorkflowEntity,
  WorkflowTaskEntity,
};

export const ENTITIES = [
  TenantEntity,
  ApiKeyEntity,
  WorkflowEntity,
  WorkflowTaskEntity,
  ExecutionEntity,
  NodeExecutionEntity,
  ExecutionMessageEntity,
  DriveFileEntity,
  UploadedFileEntity,
];
