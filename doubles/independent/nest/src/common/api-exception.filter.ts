import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject, Logger } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiException } from './api.exception.js';
import { ErrorCode, MAX_UPLOAD_FILE_MB } from './error-codes.js';
import type { ApiRequest } from './request-context.js';
import { newTraceId } from './trace-id.js';

const CODE_BY_STATUS: Record<number, string> = {
  400: ErrorCode.INVALID_REQUEST_BODY,
  401: ErrorCode.UNAUTHORIZED,
  404: ErrorCode.NOT_FOUND,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
};

/**
 * One error body for every failure, framework-raised or ours:
 *   { success: false, statusCode, error, message, errCode, errMsg, traceId, ... }
 * statusCode/message/error are Nest's usual error fields (and the shape the
 * specification gives for the 400 of workflow generation); success, errCode,
 * errMsg and traceId are the envelope fields of section 2.1.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<ApiRequest>();
    const res = ctx.getResponse<Response>();

    let status: number = HttpStatus.INTERNAL_SERVER_ERROR;
    let errCode: string = ErrorCode.UNKNOWN;
    let message = 'Internal server error; retry later';
    let extra: Record<string, unknown> = {};

    if (exception instanceof ApiException) {
      status = exception.getStatus();
      errCode = exception.errCode;
      message = exception.message;
      extra = exception.extra;
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      errCode = CODE_BY_STATUS[status] ?? (STATUS_CODES[status] ?? 'ERROR').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
      message = ApiExceptionFilter.messageOf(exception);
      if (exception.cause instanceof SyntaxError) {
        message = `Malformed JSON request body: ${message}`;
      } else if (exception.cause instanceof URIError) {
        errCode = ErrorCode.INVALID_REQUEST_PARAMS;
        message = `Malformed path: ${message}`;
      }
      if (status === HttpStatus.PAYLOAD_TOO_LARGE) {
        if (isMulterCause(exception.cause)) {
          errCode = ErrorCode.FILE_TOO_LARGE;
          message = `File too large; maximum size ${MAX_UPLOAD_FILE_MB} MB per file`;
        } else {
          message = 'Request payload too large; maximum size 100KB';
        }
      }
    } else {
      this.logger.error(
        `Unhandled error on ${req.method} ${req.originalUrl}`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }

    if (res.headersSent) {
      return;
    }
    const traceId = req.traceId ?? newTraceId();
    const body: Record<string, unknown> = {
      success: false,
      statusCode: status,
      error: STATUS_CODES[status] ?? 'Error',
      message,
      errCode,
      errMsg: message,
      traceId,
      ...extra,
    };
    if (this.config.development && exception instanceof Error && exception.stack) {
      body.stack = exception.stack;
    }
    if (status === HttpStatus.UNAUTHORIZED) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="openapi"');
    }
    res.setHeader('X-Trace-Id', traceId);
    res.status(status).json(body);
  }

  private static messageOf(exception: HttpException): string {
    const response = exception.getResponse();
    if (typeof response === 'string') {
      return response;
    }
    const m = (response as { message?: unknown }).message;
    if (Array.isArray(m)) {
      return m.join('; ');
    }
    return typeof m === 'string' ? m : exception.message;
  }
}

function isMulterCause(cause: unknown): boolean {
  return typeof cause === 'object' && cause !== null && (cause as { name?: string }).name === 'MulterError';
}
