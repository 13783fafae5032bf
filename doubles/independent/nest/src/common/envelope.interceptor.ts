import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import type { ApiRequest } from './request-context.js';

export interface Envelope<T> {
  success: boolean;
  data?: T;
  traceId?: string;
}

/** Wraps every successful JSON result in the response envelope of section 2.1. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    return next.handle().pipe(
      map((data: unknown) => {
        if (data instanceof StreamableFile) {
          return data;
        }
        const envelope: Envelope<unknown> = { success: true };
        if (data !== undefined) {
          envelope.data = data;
        }
        if (req.traceId) {
          envelope.traceId = req.traceId;
        }
        return envelope;
      }),
    );
  }
}
