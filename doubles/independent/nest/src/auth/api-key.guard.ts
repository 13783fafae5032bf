import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiException } from '../common/api.exception.js';
import { ErrorCode } from '../common/error-codes.js';
import { sha256Hex } from '../common/ids.js';
import type { ApiRequest } from '../common/request-context.js';
import { ApiKeyEntity, TenantEntity } from '../database/entities/index.js';

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/**
 * Authentication of section 5: `Authorization: Bearer <API_KEY>` on every
 * request. The key identifies the tenant whose data the request may reach.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const header = req.headers.authorization;
    if (!header) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, ErrorCode.UNAUTHORIZED, 'Missing API key: send Authorization: Bearer <API_KEY>');
    }
    const match = BEARER.exec(header);
    if (!match) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, ErrorCode.UNAUTHORIZED, 'Invalid Authorization header: expected Bearer <API_KEY>');
    }
    const key = await this.keys.findOneBy({ keyHash: sha256Hex(match[1]) });
    const tenant = key ? await this.tenants.findOneBy({ id: key.tenantId }) : null;
    if (!key || !tenant) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, ErrorCode.UNAUTHORIZED, 'Invalid API key');
    }
    req.principal = { tenantId: tenant.id, tenantName: tenant.name };
    return true;
  }
}
