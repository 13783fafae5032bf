/**
 * Error codes carried in `errCode`. Codes from the specification's table are
 * used wherever one fits; the few situations the table does not name get a
 * descriptive code in the same style (see CHOICES.md).
 */
export const ErrorCode = {
  // From the specification's table
  CANVAS_NOT_FOUND: 'CANVAS_NOT_FOUND',
  INVALID_REQUEST_BODY: 'INVALID_REQUEST_BODY',
  UNKNOWN: 'E0000',
  UPLOAD_FILE_NOT_FOUND: 'E1012',
  EXECUTION_NOT_FOUND: 'E1021',
  DRIVE_FILE_NOT_FOUND: 'E1024',
  CONTENT_TOO_LARGE: 'E2004',
  PAYLOAD_TOO_LARGE: 'E2005',
  // Not in the table
  UNAUTHORIZED: 'UNAUTHORIZED',
  WORKFLOW_API_DISABLED: 'WORKFLOW_API_DISABLED',
  INVALID_REQUEST_PARAMS: 'INVALID_REQUEST_PARAMS',
  GENERATION_FAILED: 'WORKFLOW_GENERATION_FAILED',
  NOT_FOUND: 'NOT_FOUND',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Limits from section 8 of the specification. */
export const MAX_CONTENT_CHARS = 100_000;
export const MAX_JSON_BODY = '100kb';

/** Upload limits (the specification leaves them open; see CHOICES.md). */
export const MAX_UPLOAD_FILE_MB = 10;
export const MAX_UPLOAD_FILES = 10;
