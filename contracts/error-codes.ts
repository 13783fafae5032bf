/** The error-code table of §7, as data. `httpStatus: null` is the specification's "none listed". */

export interface ErrorCode {
  code: string;
  httpStatus: number | null;
  meaning: string;
}

const listed = (code: string, httpStatus: number, meaning: string): ErrorCode => ({ code, httpStatus, meaning });
const unlisted = (code: string, meaning: string): ErrorCode => ({ code, httpStatus: null, meaning });

export const ERROR_CODES: readonly ErrorCode[] = [
  listed('CANVAS_NOT_FOUND', 404, 'the associated canvas cannot be found'),
  listed('INSUFFICIENT_CREDITS', 402, 'not enough credits for the operation'),
  listed('INVALID_REQUEST_BODY', 400, 'request body format is invalid'),
  listed('WEBHOOK_DISABLED', 403, 'the webhook is disabled and cannot be triggered'),
  listed('WEBHOOK_NOT_FOUND', 404, 'the webhook does not exist or was deleted'),
  listed('WEBHOOK_RATE_LIMITED', 429, 'request rate exceeds the limit'),
  unlisted('E0000', 'unknown error, retry later'),
  unlisted('E0001', 'cannot connect to the server'),
  unlisted('E0003', 'system parameter error'),
  unlisted('E0004', 'authorization process failed'),
  unlisted('E0005', 'account not found'),
  unlisted('E0006', 'password incorrect'),
  unlisted('E0007', 'e-mail already registered'),
  unlisted('E0008', 'verification session not found or expired'),
  unlisted('E0009', 'verification code incorrect'),
  unlisted('E0010', 'operation too frequent'),
  unlisted('E0011', 'human verification failed'),
  unlisted('E0012', 'authentication expired'),
  unlisted('E0013', 'file type temporarily unsupported'),
  unlisted('E0014', 'switching the embedding model is temporarily unsupported'),
  unlisted('E0015', 'chat model not configured'),
  unlisted('E0016', 'embedding model not configured'),
  unlisted('E0017', 'media provider not configured'),
  unlisted('E0018', 'media model not configured'),
  unlisted('E1000', 'canvas not found'),
  unlisted('E1002', 'resource not found'),
  unlisted('E1003', 'document not found'),
  unlisted('E1004', 'reference not found'),
  unlisted('E1005', 'reference object missing'),
  unlisted('E1006', 'skill not found'),
  unlisted('E1007', 'label class not found'),
  unlisted('E1008', 'label instance not found'),
  unlisted('E1009', 'share content not found'),
  unlisted('E1011', 'action result not found'),
  unlisted('E1012', 'upload file not found'),
  unlisted('E1013', 'code artifact not found'),
  unlisted('E1014', 'project not found'),
  unlisted('E1015', 'provider not found'),
  unlisted('E1016', 'provider item not found'),
  unlisted('E1017', 'MCP server not found'),
  unlisted('E1018', 'canvas version not found'),
  unlisted('E1019', 'provider misconfiguration'),
  unlisted('E1020', 'toolset not found'),
  unlisted('E1021', 'workflow execution not found'),
  unlisted('E1022', 'workflow app not found'),
  unlisted('E1023', 'copilot session not found'),
  unlisted('E1024', 'drive file not found'),
  unlisted('E2001', 'storage quota exceeded'),
  unlisted('E2002', 'execution failed because the credit quota is insufficient'),
  unlisted('E2003', 'model not supported'),
  unlisted('E2004', 'content too large; maximum length 100k characters'),
  unlisted('E2005', 'request payload too large; maximum size 100KB'),
  unlisted('E3001', 'model provider error'),
  unlisted('E3002', 'request rate limit of the model provider exceeded'),
  unlisted('E3003', 'model provider timed out'),
  unlisted('E3004', 'action was stopped'),
  unlisted('E3005', 'duplication not allowed for this shared content'),
  unlisted('E3006', 'file too large for direct parsing; a code-execution tool should process it'),
  unlisted('E3007', 'content contains sensitive information'),
  unlisted('E3008', 'presigned uploads unsupported by the storage backend'),
  unlisted('E3009', 'content type not allowed for this operation'),
  unlisted('E3010', 'uploaded file size differs from the expected size'),
  unlisted('E3011', 'upload session expired; request a new presigned URL'),
  unlisted('E3012', 'tool call failed'),
  unlisted('E3013', 'failed to send e-mail'),
];

const BY_CODE = new Map(ERROR_CODES.map((e) => [e.code, e]));

/** The §7 entry of a code, or undefined for a code the specification does not list. */
export function errorCode(code: string): ErrorCode | undefined {
  return BY_CODE.get(code);
}

/**
 * §8 limits, with the codes that report them. "100KB" may mean 100,000 or 102,400 bytes, so the
 * harness only calls a payload oversized above the larger reading and within the limit below the smaller.
 */
export const LIMITS = {
  maxContentChars: 100_000,
  contentCode: 'E2004',
  payloadBytesSurelyWithin: 100_000,
  payloadBytesSurelyOver: 102_400,
  payloadCode: 'E2005',
  unusedFileRetentionHours: 24,
  firstPage: 1,
} as const;
