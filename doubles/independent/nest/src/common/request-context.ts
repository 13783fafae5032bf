import type { Request } from 'express';

export interface TenantPrincipal {
  tenantId: string;
  tenantName: string;
}

/** The Express request as seen by this service after authentication. */
export interface ApiRequest extends Request {
  traceId?: string;
  principal?: TenantPrincipal;
}
