import { randomBytes } from 'node:crypto';
import type { NextFunction, Response } from 'express';
import type { ApiRequest } from './request-context.js';

export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** Gives every request a trace id, echoed in the X-Trace-Id response header. */
export function traceIdMiddleware(req: ApiRequest, res: Response, next: NextFunction): void {
  req.traceId = newTraceId();
  res.setHeader('X-Trace-Id', req.traceId);
  next();
}
