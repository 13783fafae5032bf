import { expect, test } from '@playwright/test';
import { errorCode } from '../contracts/error-codes.ts';
import { ApiError, toApiError, type TargetErrorCode } from './errors.ts';

// Every code the target answers with, and the status it answers it with.
const USED: Record<TargetErrorCode, number> = {
  INVALID_REQUEST_BODY: 400,
  CANVAS_NOT_FOUND: 404,
  WEBHOOK_DISABLED: 403,
  E0004: 401,
  E1002: 404,
  E1012: 400,
  E1021: 404,
  E2004: 400,
  E2005: 400,
  E0000: 500,
};

test('every code the target uses is a §7 code, sent with its listed HTTP status where §7 lists one', () => {
  for (const [code, status] of Object.entries(USED)) {
    const known = errorCode(code);
    expect(known, code).toBeDefined();
    if (known!.httpStatus !== null) expect(status, code).toBe(known!.httpStatus);
  }
});

test('fastify and plugin errors map to listed statuses', () => {
  expect(toApiError({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' })).toMatchObject({
    statusCode: 400,
    errCode: 'E2005',
  });
  expect(toApiError({ statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: 'bad type' })).toMatchObject({
    statusCode: 400,
    errCode: 'INVALID_REQUEST_BODY',
  });
  expect(toApiError(new Error('boom'))).toMatchObject({ statusCode: 500, errCode: 'E0000' });
  const own = new ApiError(404, 'E1021', 'gone');
  expect(toApiError(own)).toBe(own);
});
