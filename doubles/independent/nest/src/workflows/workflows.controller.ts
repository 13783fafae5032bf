import { Controller, Get, Param, Query } from '@nestjs/common';
import { Tenant } from '../auth/tenant.decorator.js';
import type { TenantPrincipal } from '../common/request-context.js';
import { SearchWorkflowsQuery } from './dto/search-workflows.query.js';
import { toPlanView, WorkflowPlanView } from './plan.mapper.js';
import { WorkflowsService } from './workflows.service.js';

@Controller('openapi/workflows')
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  /** 4.5 Search the workflows reachable with the caller's key. */
  @Get()
  search(@Tenant() tenant: TenantPrincipal, @Query() query: SearchWorkflowsQuery) {
    return this.workflows.search(tenant.tenantId, query);
  }

  /** 4.6 Workflow detail: the plan (title, tasks, variables). */
  @Get(':canvasId')
  async detail(@Tenant() tenant: TenantPrincipal, @Param('canvasId') canvasId: string): Promise<WorkflowPlanView> {
    return toPlanView(await this.workflows.getOwned(tenant.tenantId, canvasId));
  }
}
