/**
 * Test helpers for the target's own tests: an HTTP client that runs every response of the API
 * through the contract checks (contracts/check.ts) before the test sees it.
 */
import { expect } from '@playwright/test';
import { checkResponse, failures, operationFor, type OperationId } from '../contracts/check.ts';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  // Tests read into bodies freely; the contract check has already vouched for their shape.
  // biome-ignore lint/suspicious/noExplicitAny: tests read into contract-checked bodies without restating their types
  json: any;
}

/** Fails the test if the response breaks its operation's contract (must and should findings). */
export function expectConforms(operation: OperationId, reply: Reply): void {
  const findings = checkResponse({ operation, status: reply.status, headers: reply.headers, body: reply.text });
  expect(failures(findings, true), `${operation} → ${reply.status} ${reply.text.slice(0, 300)}`).toEqual([]);
}

export interface RequestOptions {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Overrides the client's key; null sends no Authorization header. */
  apiKey?: string | null;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  withKey(apiKey: string): Client {
    return new Client(this.baseUrl, apiKey);
  }

  get(path: string, options: RequestOptions = {}): Promise<Reply> {
    return this.request('GET', path, options);
  }

  post(path: string, json?: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('POST', path, json === undefined ? options : { ...options, json });
  }

  upload(
    files: { name: string; content: string; type?: string }[],
    field = 'files',
    options: RequestOptions = {},
  ): Promise<Reply> {
    const form = new FormData();
    for (const f of files) form.append(field, new Blob([f.content], { type: f.type ?? 'text/plain' }), f.name);
    return this.request('POST', '/openapi/files/upload', { ...options, body: form });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.apiKey === undefined ? this.apiKey : options.apiKey;
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let body = options.body;
    if (options.json !== undefined) {
      body = typeof options.json === 'string' ? options.json : JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const responseHeaders: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    const reply: Reply = { status: res.status, headers: responseHeaders, text, json };
    const op = operationFor(method, path);
    if (op) expectConforms(op.operation, reply);
    return reply;
  }

  /** Polls status until the execution ends; returns every status snapshot seen. */
  async waitForEnd(executionId: string, timeoutMs = 10_000): Promise<Reply[]> {
    const seen: Reply[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.get(`/openapi/workflow/${executionId}/status`);
      seen.push(r);
      if (r.status !== 200 || ['finish', 'failed'].includes(r.json.data.status)) return seen;
      if (Date.now() > deadline)
        throw new Error(`execution ${executionId} still ${r.json.data.status} after ${timeoutMs} ms`);
      await sleep(5);
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
