/**
 * The race between an early answer and the body still being written, forced: a server that answers a
 * body over its limit (or a request without a key) as soon as it has the head, and resets the connection
 * with the body unread. On a busy machine the client may write its next chunk after the reset is in but
 * before the answer was read: the write fails, and the answer that came is lost with the socket. The
 * client here is made that busy on purpose: its thread sleeps before every chunk of a body it writes,
 * while the server (in a worker thread of its own) answers and resets. A few hundred exchanges, and every
 * one must read the status that came: none judged unanswered, none judged on anything else.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { expect, test } from '@playwright/test';
import { sendOnce } from './http.ts';
import { prepareRequest } from './request.ts';
import type { RequestSpec } from './exchange.ts';

const LIMIT = 100 * 1024;

/**
 * The server, in a worker: reads a request's head; a body over the limit, or a request without a key, is
 * answered at once (after 100 Continue when the head asked for it, as Node's servers give it), and the
 * connection reset with whatever the client sends unread. Anything else is read whole and answered 200.
 */
const SERVER = `
const net = require('node:net');
const { parentPort } = require('node:worker_threads');
const answer = (status, reason, body) =>
  'HTTP/1.1 ' + status + ' ' + reason + '\\r\\ncontent-type: application/json\\r\\ncontent-length: ' + body.length +
  '\\r\\nconnection: close\\r\\n\\r\\n' + body;
const server = net.createServer((socket) => {
  let head = '';
  let rest = 0;
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    if (rest > 0) {
      rest -= chunk.length;
      if (rest <= 0) socket.end(answer(200, 'OK', '{"success":true,"data":{}}'));
      return;
    }
    head += chunk.toString('latin1');
    const end = head.indexOf('\\r\\n\\r\\n');
    if (end < 0) return;
    const length = Number(/content-length: *(\\d+)/i.exec(head)?.[1] ?? 0);
    const keyed = /authorization: *bearer /i.test(head);
    if (length > ${LIMIT} || !keyed) {
      if (/expect: *100-continue/i.test(head)) socket.write('HTTP/1.1 100 Continue\\r\\n\\r\\n');
      const body = keyed
        ? '{"success":false,"errCode":"E2005","errMsg":"request payload too large"}'
        : '{"success":false,"errCode":"E0004","errMsg":"missing or invalid API key"}';
      socket.write(answer(keyed ? 400 : 401, keyed ? 'Bad Request' : 'Unauthorized', body));
      socket.resetAndDestroy();
      return;
    }
    rest = length - (head.length - end - 4);
    if (rest <= 0) socket.end(answer(200, 'OK', '{"success":true,"data":{}}'));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

/** While installed, the client's thread sleeps before it writes each chunk of a request body: a busy machine. */
function slowWrites(ms: number): () => void {
  const original = http.ClientRequest.prototype.write;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  http.ClientRequest.prototype.write = function (this: http.ClientRequest, ...args: unknown[]) {
    Atomics.wait(cell, 0, 0, ms);
    return (original as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof original;
  return () => {
    http.ClientRequest.prototype.write = original;
  };
}

function send(baseUrl: string, spec: RequestSpec) {
  const prepared = prepareRequest(spec, {
    baseUrl,
    caller: { name: 'A', apiKey: 'wfk_race_test_key_000000000' },
    requestTimeoutMs: 10_000,
    saveBody: () => '/dev/null',
  });
  return sendOnce(prepared, { maxBodyBytes: 1 << 20 });
}

test('an early answer and a reset while the body is written: the status that came is read, every time', async () => {
  test.setTimeout(120_000);
  const worker = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const cases: [string, RequestSpec, number][] = [
    [
      'a generate body over 100 KB (announced with 100-continue)',
      { method: 'POST', path: '/openapi/copilot/workflow/generate', json: { query: 'q'.repeat(120_000) } },
      400,
    ],
    [
      'a run of 40 KB without a key (not announced)',
      { method: 'POST', path: '/openapi/workflow/c1/run', json: { pad: 'p'.repeat(40_000) }, auth: { kind: 'none' } },
      401,
    ],
    [
      'a run of 75 KB without a key (announced)',
      { method: 'POST', path: '/openapi/workflow/c1/run', json: { pad: 'p'.repeat(75_000) }, auth: { kind: 'none' } },
      401,
    ],
  ];
  const misread: string[] = [];
  const restore = slowWrites(15);
  try {
    for (const [what, spec, status] of cases)
      for (let i = 0; i < 100; i++) {
        const answer = await send(baseUrl, spec);
        if (answer.status !== status)
          misread.push(`${what}, try ${i + 1}: ${answer.status ?? 'no status'} ${answer.fault?.message ?? ''}`);
      }
    // A body under the limit with a key is read whole and accepted: the slowed writer still sends it all.
    const small = await send(baseUrl, { method: 'POST', path: '/openapi/workflow/c1/run', json: { variables: {} } });
    expect(small.status).toBe(200);
  } finally {
    restore();
    worker.postMessage('stop');
  }
  expect(misread, misread.slice(0, 10).join('\n')).toEqual([]);
});
