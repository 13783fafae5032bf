import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { ApiException } from './api.exception.js';
import type { ApiRequest } from './request-context.js';

function hasBody(req: ApiRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && Number(length) > 0) || req.headers['transfer-encoding'] !== undefined;
}

/**
 * For endpoints whose body is JSON: a non-empty body must be sent as
 * application/json and must be a JSON object. Runs after authentication, so
 * a caller without a valid key still gets 401 first.
 */
@Injectable()
export class JsonObjectBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    if (hasBody(req) && !req.is('application/json')) {
      throw ApiException.badRequest('Request body must be JSON (Content-Type: application/json)');
    }
    if (req.body !== undefined && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
      throw ApiException.badRequest('Request body must be a JSON object');
    }
    return next.handle();
  }
}
