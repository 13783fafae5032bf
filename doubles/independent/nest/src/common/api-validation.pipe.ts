import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiException } from './api.exception.js';
import { ErrorCode, MAX_CONTENT_CHARS } from './error-codes.js';

function flatten(errors: ValidationError[], parent = ''): { path: string; messages: string[]; tooLong: boolean }[] {
  const out: { path: string; messages: string[]; tooLong: boolean }[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      out.push({
        path,
        messages: Object.values(error.constraints),
        tooLong: 'maxLength' in error.constraints && String(error.value ?? '').length > MAX_CONTENT_CHARS - 1,
      });
    }
    if (error.children?.length) {
      out.push(...flatten(error.children, path));
    }
  }
  return out;
}

/**
 * class-validator + class-transformer validation (Nest's ValidationPipe) whose
 * failures become 400 responses with an errCode that names what was wrong:
 * INVALID_REQUEST_BODY for bodies, INVALID_REQUEST_PARAMS for query and path
 * parameters, E2004 for text over the 100k-character content limit.
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidUnknownValues: true,
      stopAtFirstError: false,
      exceptionFactory: (errors: ValidationError[]) => new ValidationFailed(flatten(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof ValidationFailed) {
        const message = error.details.map((d) => d.messages.join(', ')).join('; ') || 'Invalid request';
        if (error.details.some((d) => d.tooLong)) {
          throw ApiException.badRequest(message, ErrorCode.CONTENT_TOO_LARGE);
        }
        const code = metadata.type === 'body' ? ErrorCode.INVALID_REQUEST_BODY : ErrorCode.INVALID_REQUEST_PARAMS;
        throw ApiException.badRequest(message, code);
      }
      throw error;
    }
  }
}

class ValidationFailed extends BadRequestException {
  constructor(readonly details: { path: string; messages: string[]; tooLong: boolean }[]) {
    super('Validation failed');
  }
}
