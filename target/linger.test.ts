/**
 * The reference target reads what it refuses: a body over the payload limit, or one sent without a key,
 * is answered before it is read, and the rest of it is still read and discarded, so a client that keeps
 * writing after the answer is never reset, reads the whole answer, and can send its next request on the
 * same connection. A server that closed at once would provoke the race between its answer and the
 * client's writes (the harness survives that race; its own target must not cause it).
 */
import net from 'node:net';
import { expect, test } from '@playwright/test';
import { startTarget, type StartedTarget } from './server.ts';

let target: StartedTarget;
let key: string;

test.beforeAll(async () => {
  target = await startTarget({ nodeDurationMs: 1 });
  key = target.tenants.find((t) => t.name === 'acme')!.apiKey;
});
test.afterAll(() => target.close());

/** Sends a request's head, then its body slowly, in chunks, after the answer came; then a search on the same connection. */
function refusedThenNext(head: string, bodyBytes: number): Promise<{ answers: string; error?: string }> {
  const { port } = new URL(target.baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answers = '';
    let error: string | undefined;
    socket.on('data', (d) => {
      answers += d.toString('latin1');
    });
    socket.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
    });
    socket.on('close', () => resolve({ answers, ...(error ? { error } : {}) }));
    socket.write(head);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let sent = 0;
    const writeNext = () => {
      if (sent >= bodyBytes) {
        socket.write(
          `GET /v1/openapi/workflows HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\nconnection: close\r\n\r\n`,
        );
        return;
      }
      const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
      sent += piece.length;
      socket.write(piece, () => setTimeout(writeNext, 5));
    };
    setTimeout(writeNext, 50);
  });
}

for (const [what, head, status] of [
  [
    'a generate body over 100 KB',
    (bytes: number, k: string) =>
      `POST /v1/openapi/copilot/workflow/generate HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${k}\r\ncontent-type: application/json\r\ncontent-length: ${bytes}\r\n\r\n`,
    400,
  ],
  [
    'a run of 75 KB without a key',
    (bytes: number) =>
      `POST /v1/openapi/workflow/c_acme_hello/run HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${bytes}\r\n\r\n`,
    401,
  ],
] as const) {
  test(`${what}: answered ${status} at once, the rest read, the connection kept for the next request`, async () => {
    const bytes = status === 400 ? 300 * 1024 : 75 * 1024;
    const { answers, error } = await refusedThenNext(head(bytes, key), bytes);
    expect(error).toBeUndefined();
    const statuses = [...answers.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([status, 200]);
  });
}
