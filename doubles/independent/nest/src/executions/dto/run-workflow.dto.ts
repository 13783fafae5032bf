import { IsObject, IsOptional } from 'class-validator';

/**
 * Body of POST /openapi/workflow/{canvasId}/run (section 4.1). Variables may
 * also be given as top-level fields (legacy form); the controller reads those
 * from the raw body, because validation strips unknown properties here.
 */
export class RunWorkflowDto {
  @IsOptional()
  @IsObject({ message: 'variables must be an object of variable name/value pairs' })
  variables?: Record<string, unknown>;
}
