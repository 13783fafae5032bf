import { HttpException, HttpStatus } from '@nestjs/common';
import { ErrorCode, ErrorCodeValue } from './error-codes.js';

/**
 * An HTTP error that carries the envelope's errCode. `extra` fields are
 * merged into the error body (e.g. modelResponse for generation failures).
 */
export class ApiException extends HttpException {
  constructor(
    status: number,
    readonly errCode: ErrorCodeValue | string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message, status);
  }

  static badRequest(message: string, errCode: string = ErrorCode.INVALID_REQUEST_BODY, extra?: Record<string, unknown>) {
    return new ApiException(HttpStatus.BAD_REQUEST, errCode, message, extra);
  }

  static canvasNotFound(canvasId: string) {
    return new ApiException(HttpStatus.NOT_FOUND, ErrorCode.CANVAS_NOT_FOUND, `Workflow ${canvasId} not found`);
  }

  static executionNotFound(executionId: string) {
    return new ApiException(
      HttpStatus.NOT_FOUND,
      ErrorCode.EXECUTION_NOT_FOUND,
      `Workflow execution ${executionId} not found`,
    );
  }
}
