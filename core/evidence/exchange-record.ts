/**
 * The evidence of one exchange: the request as sent and the answer as read, redacted, excerpted, with a
 * curl reproducer. Long request bodies are kept beside the evidence, redacted, for the reproducer to read.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Violation } from '../../contracts/check.ts';
import { redactHeaders, redactSecrets } from '../settings/redact.ts';
import type { ExchangeRecord, TestRef } from './records.ts';
import { curlFor, type ReproBody } from './reproducer.ts';

const EXCERPT = 2000;

export function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}… (${text.length} chars)` : text;
}

/** What was sent, as the evidence keeps it. */
export interface SentRequest {
  method: string;
  url: URL;
  label?: string;
  /** As shown: one value per header. */
  headers: Record<string, string>;
  /** As sent, for the reproducer (a repeated header keeps its values apart). */
  sendHeaders: Record<string, string | string[]>;
  bodyText?: string;
  bodyBytes: number;
  repro?: ReproBody;
}

/** What came back, as read. */
export interface ReadAnswer {
  status?: number;
  headers: Record<string, string>;
  text: string;
  bodyBytes: number;
  truncated: boolean;
  fault?: { kind: string; message: string };
  violations: readonly Violation[];
  durationMs: number;
  /** Why the body of an answer whose status came is not judged (the server closed the connection mid-body). */
  bodyNotJudged?: string;
}

function requestExcerpt(sent: SentRequest): string | undefined {
  if (sent.bodyText !== undefined) return redactSecrets(excerpt(sent.bodyText));
  if (sent.repro?.kind === 'multipart')
    return `(multipart: ${sent.repro.files.map((f) => `${f.name} ${f.bytes} B ${f.type}`).join(', ')})`;
  return undefined;
}

export function exchangeRecord(
  ids: { id: string; test?: TestRef; tenant: string; operation?: string; baseUrl: string },
  sent: SentRequest,
  answer: ReadAnswer,
): ExchangeRecord {
  return {
    kind: 'exchange',
    id: ids.id,
    test: ids.test,
    at: new Date().toISOString(),
    label: sent.label,
    tenant: ids.tenant,
    method: sent.method,
    url: redactSecrets(sent.url.toString()),
    operation: ids.operation,
    request: { headers: redactHeaders(sent.headers), bodyExcerpt: requestExcerpt(sent), bodyBytes: sent.bodyBytes },
    response:
      answer.status === undefined
        ? undefined
        : {
            status: answer.status,
            headers: redactHeaders(answer.headers),
            bodyExcerpt: redactSecrets(excerpt(answer.text)),
            bodyBytes: answer.bodyBytes,
            truncated: answer.truncated,
            ...(answer.bodyNotJudged ? { bodyNotJudged: answer.bodyNotJudged } : {}),
          },
    fault: answer.fault,
    violations: answer.violations.map((v) => ({ ...v, actual: redactSecrets(v.actual) })),
    durationMs: answer.durationMs,
    curl: curlFor(
      { method: sent.method, url: sent.url.toString(), headers: sent.sendHeaders, body: sent.repro },
      ids.baseUrl,
    ),
  };
}

/** Keeps a request body too long to inline, redacted, in `bodies/` beside the evidence folder; returns its path. */
export function saveBody(evidenceDir: string, text: string): string {
  const name = `${createHash('sha1').update(text).digest('hex').slice(0, 16)}.txt`;
  const dir = join(dirname(evidenceDir), 'bodies');
  const path = join(dir, name);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, redactSecrets(text));
  }
  return path;
}
