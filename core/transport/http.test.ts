/**
 * The wire reads the answer that came: a server that answers as soon as it has read the request's head
 * (a 401 for a missing key, a 400 or 413 for a declared length over a limit) and closes without reading
 * the body, as hyper, many proxies and load balancers do, is heard, whatever the size of the body it left
 * unread. "No answer" is only when none arrived.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { sendOnce } from './http.ts';
import { prepareRequest } from './request.ts';
import type { RequestSpec } from './exchange.ts';

const BODY = '{"success":false,"errCode":"E0004","errMsg":"missing or invalid API key"}';

/** Answers 401 once the head is in, then ends (`end`) or resets (`destroy`) the connection unread. */
function earlyServer(close: 'end' | 'destroy'): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = net.createServer((socket) => {
    let head = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.write(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\nconnection: close\r\n\r\n${BODY}`,
      );
      if (close === 'end') socket.end();
      else setTimeout(() => socket.destroy(), 5);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        stop: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

function send(baseUrl: string, spec: RequestSpec) {
  const prepared = prepareRequest(spec, {
    baseUrl,
    caller: { name: 'A', apiKey: 'wfk_transport_test_key_0000' },
    requestTimeoutMs: 5_000,
    saveBody: () => '/dev/null',
  });
  return sendOnce(prepared, { maxBodyBytes: 1 << 20 });
}

for (const close of ['end', 'destroy'] as const) {
  test(`an answer given before the body was read is the answer (server ${close}s the connection)`, async () => {
    const server = await earlyServer(close);
    try {
      const files = (bytes: number) => [{ name: 'a.txt', type: 'text/plain', content: new Uint8Array(bytes) }];
      const requests: [string, RequestSpec][] = [
        ['a small run', { method: 'POST', path: '/openapi/workflow/c1/run', json: { variables: {} } }],
        ['a run over 100 KB', { method: 'POST', path: '/openapi/workflow/c1/run', json: { pad: 'p'.repeat(120_000) } }],
        ['an upload of 1 MB', { method: 'POST', path: '/openapi/files/upload', multipart: { files: files(1 << 20) } }],
        ['an upload of 20 KB', { method: 'POST', path: '/openapi/files/upload', multipart: { files: files(20_000) } }],
      ];
      for (const [what, spec] of requests)
        for (let i = 0; i < 3; i++) {
          const answer = await send(server.url, { ...spec, auth: { kind: 'none' } });
          expect(answer.fault, `${what}, attempt ${i + 1}`).toBeUndefined();
          expect([answer.status, answer.text], `${what}, attempt ${i + 1}`).toEqual([401, BODY]);
        }
    } finally {
      await server.stop();
    }
  });
}

test('a header given twice is sent twice', async () => {
  const seen: string[] = [];
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      seen.push(
        ...chunk
          .toString('latin1')
          .split('\r\n')
          .filter((l) => /^authorization:/i.test(l)),
      );
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const answer = await send(url, {
      method: 'GET',
      path: '/openapi/workflows',
      auth: { kind: 'repeated', values: ['Bearer one', 'Bearer two'] },
    });
    expect(answer.status).toBe(401);
    expect(seen).toEqual(['authorization: Bearer one', 'authorization: Bearer two']);
  } finally {
    await new Promise((done) => server.close(done));
  }
});
