import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { ApiRequest, TenantPrincipal } from '../common/request-context.js';

/** The tenant authenticated by ApiKeyGuard. */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): TenantPrincipal => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.principal) {
    throw new Error('Tenant requested on a route without authentication');
  }
  return req.principal;
});
