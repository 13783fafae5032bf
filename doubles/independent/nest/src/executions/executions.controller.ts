import { Body, Controller, Get, HttpCode, Param, Post, Req, UseInterceptors } from '@nestjs/common';
import { Tenant } from '../auth/tenant.decorator.js';
import { JsonObjectBodyInterceptor } from '../common/json-body.interceptor.js';
import type { ApiRequest, TenantPrincipal } from '../common/request-context.js';
import { RunWorkflowDto } from './dto/run-workflow.dto.js';
import { ExecutionsService } from './executions.service.js';

@Controller('openapi/workflow')
export class ExecutionsController {
  constructor(private readonly executions: ExecutionsService) {}

  /** 4.1 Run a workflow; variables in the `variables` object or (legacy) as top-level fields. */
  @Post(':canvasId/run')
  @HttpCode(200)
  @UseInterceptors(JsonObjectBodyInterceptor)
  run(
    @Tenant() tenant: TenantPrincipal,
    @Param('canvasId') canvasId: string,
    @Body() dto: RunWorkflowDto,
    @Req() req: ApiRequest,
  ) {
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const legacy = Object.fromEntries(Object.entries(raw).filter(([name]) => name !== 'variables'));
    // The `variables` object wins over a top-level field of the same name.
    return this.executions.run(tenant.tenantId, canvasId, { ...legacy, ...(dto.variables ?? {}) });
  }

  /** 4.2 Abort a running execution. */
  @Post(':executionId/abort')
  @HttpCode(200)
  async abort(@Tenant() tenant: TenantPrincipal, @Param('executionId') executionId: string): Promise<void> {
    await this.executions.abort(tenant.tenantId, executionId);
  }

  /** 4.3 Output nodes and files. */
  @Get(':executionId/output')
  output(@Tenant() tenant: TenantPrincipal, @Param('executionId') executionId: string) {
    return this.executions.output(tenant.tenantId, executionId);
  }

  /** 4.4 Execution status and node statuses. */
  @Get(':executionId/status')
  status(@Tenant() tenant: TenantPrincipal, @Param('executionId') executionId: string) {
    return this.executions.status(tenant.tenantId, executionId);
  }
}
