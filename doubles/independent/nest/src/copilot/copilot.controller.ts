import { Body, Controller, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { Tenant } from '../auth/tenant.decorator.js';
import { JsonObjectBodyInterceptor } from '../common/json-body.interceptor.js';
import type { TenantPrincipal } from '../common/request-context.js';
import { CopilotService } from './copilot.service.js';
import { GenerateWorkflowDto } from './dto/generate-workflow.dto.js';

@Controller('openapi/copilot')
export class CopilotController {
  constructor(private readonly copilot: CopilotService) {}

  /** 4.8 Generate a workflow plan from a natural-language prompt. */
  @Post('workflow/generate')
  @HttpCode(200)
  @UseInterceptors(JsonObjectBodyInterceptor)
  generate(@Tenant() tenant: TenantPrincipal, @Body() dto: GenerateWorkflowDto) {
    return this.copilot.generate(tenant.tenantId, dto);
  }
}
