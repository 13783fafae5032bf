import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const WORKFLOW_ORDERS = [
  'updationDesc',
  'updationAsc',
  'creationDesc',
  'creationAsc',
  'titleAsc',
  'titleDesc',
] as const;
export type WorkflowOrder = (typeof WORKFLOW_ORDERS)[number];

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Query of GET /openapi/workflows (section 4.5). */
export class SearchWorkflowsQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  keyword?: string;

  @IsOptional()
  @IsIn(WORKFLOW_ORDERS, { message: `order must be one of: ${WORKFLOW_ORDERS.join(', ')}` })
  order?: WorkflowOrder;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be an integer (1-based)' })
  @Min(1, { message: 'page must be 1 or more (pages are 1-based)' })
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be an integer' })
  @Min(1, { message: 'pageSize must be 1 or more' })
  @Max(MAX_PAGE_SIZE, { message: `pageSize must not exceed ${MAX_PAGE_SIZE}` })
  pageSize?: number;
}
