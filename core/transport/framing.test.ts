/**
 * The raw sender writes exactly the broken framing it is asked for, half-closes only a message cut short,
 * and reads whatever came back as the wire reads any answer: a refusal, a crash's 500 (chunked or not), a
 * connection closed with no answer (lawful for a request framed wrong: RFC 9112 §8 for one cut short, §2.2
 * for one malformed), no answer within the deadline.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { RequestSpec } from './exchange.ts';
import { CLOSED_UNANSWERED, FRAMINGS, framedBytes, framedReproducer, sendFramed, type Framing } from './framing.ts';
import { prepareRequest } from './request.ts';

const KEY = 'wfk_framing_test_key_0123456789';

async function listening(server: net.Server): Promise<{ url: string; stop: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    stop: () => {
      for (const s of sockets) s.destroy();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

/** A raw server doing `reply` with the bytes of a request once the client half-closed. */
function rawServer(reply: (socket: net.Socket, request: string) => void) {
  const seen: string[] = [];
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    let request = '';
    socket.on('error', () => undefined);
    socket.on('data', (d) => {
      request += d.toString('latin1');
    });
    socket.on('end', () => {
      seen.push(request);
      reply(socket, request);
    });
  });
  return { server, seen };
}

function prepared(baseUrl: string, timeoutMs = 3_000) {
  const spec: RequestSpec = {
    method: 'POST',
    path: '/openapi/copilot/workflow/generate',
    raw: { body: '{"query":"hello"}', contentType: 'application/json' },
  };
  return prepareRequest(spec, {
    baseUrl,
    caller: { name: 'A', apiKey: KEY },
    requestTimeoutMs: timeoutMs,
    saveBody: () => '',
  });
}

test('each framing is written as it says: bad chunk sizes, a chunked body and a length cut short', () => {
  const r = prepared('http://127.0.0.1:9/v1');
  const text = (f: Framing) => framedBytes(r, f).toString('latin1');
  expect(text('chunk-size-not-hex')).toContain('Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{"query"');
  expect(text('chunk-size-16-digits')).toContain('\r\n\r\nffffffffffffffff\r\n{"query":"hello"}\r\n0\r\n\r\n');
  expect(text('chunked-cut-short')).toMatch(/\r\n\r\n21\r\n\{"query":"hello"\}$/);
  expect(text('length-cut-short')).toMatch(/Content-Length: 33\r\nConnection: close\r\n\r\n\{"query":"hello"\}$/);
  for (const f of FRAMINGS) {
    expect(text(f)).toMatch(/^POST \/v1\/openapi\/copilot\/workflow\/generate HTTP\/1\.1\r\nHost: 127\.0\.0\.1:9\r\n/);
    expect(text(f)).toContain(`authorization: Bearer ${KEY}`);
    // The reproducer names the key as ${API_KEY}, never itself.
    const repro = framedReproducer(r, f, KEY);
    expect(repro).not.toContain(KEY);
    expect(repro).toMatch(/^printf '.*' "\$\{API_KEY\}" \| nc -N 127\.0\.0\.1 9$/);
  }
});

test("a Node server's refusal of every broken framing is read: 400 once the body was seen to end", async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{"ok":true}'));
  });
  const s = await listening(server);
  try {
    for (const f of FRAMINGS) {
      const a = await sendFramed(prepared(s.url), f, { maxBodyBytes: 1 << 20 });
      expect(a.fault, f).toBeUndefined();
      expect(a.status, f).toBe(400);
    }
  } finally {
    await s.stop();
  }
});

test("a 500 is read, chunked or not; a close without an answer is the HTTP layer's lawful refusal", async () => {
  const chunked = rawServer((socket) =>
    socket.end('HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nboom!\r\n0\r\n\r\n'),
  );
  const silent = rawServer((socket) => socket.end());
  const a = await listening(chunked.server);
  const b = await listening(silent.server);
  try {
    const crash = await sendFramed(prepared(a.url), 'chunk-size-16-digits', { maxBodyBytes: 1 << 20 });
    expect(crash).toMatchObject({ status: 500, text: 'boom!' });
    expect(chunked.seen[0]).toContain('\r\n\r\nffffffffffffffff\r\n');
    // Sixteen hex digits announce 2^64−1 bytes: the message is incomplete, as a body cut short is (RFC 9112 §8).
    for (const f of ['chunk-size-16-digits', 'chunked-cut-short', 'length-cut-short'] as const) {
      const closed = await sendFramed(prepared(b.url), f, { maxBodyBytes: 1 << 20 });
      expect(closed.status).toBeUndefined();
      expect(closed.fault?.kind, f).toBe(CLOSED_UNANSWERED);
      expect(closed.fault?.message, f).toContain('RFC 9112 §8');
    }
  } finally {
    await a.stop();
    await b.stop();
  }
});

test('a whole but malformed body is left open: its answer is waited for, and a close is lawful too', async () => {
  // Answers as soon as it sees the bad chunk size, never waiting for the client's end (aiohttp does so).
  const eager = net.createServer((socket) => {
    let seen = '';
    socket.on('error', () => undefined);
    socket.on('data', (d) => {
      seen += d.toString('latin1');
      if (seen.includes('\r\n\r\nzz\r\n'))
        socket.end('HTTP/1.0 400 Bad Request\r\nContent-Length: 11\r\n\r\nBad Request');
    });
  });
  // Closes at once, with the request unread (Netty does so): the client sees a reset or an end.
  const closing = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.destroy());
  });
  // Answers only once the client half-closed: a request left open is never answered.
  const lateOnly = rawServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
  const e = await listening(eager);
  const c = await listening(closing);
  const l = await listening(lateOnly.server);
  try {
    const refused = await sendFramed(prepared(e.url), 'chunk-size-not-hex', { maxBodyBytes: 1 << 20 });
    expect(refused).toMatchObject({ status: 400, text: 'Bad Request' });
    expect(refused.fault).toBeUndefined();
    const closed = await sendFramed(prepared(c.url), 'chunk-size-not-hex', { maxBodyBytes: 1 << 20 });
    expect(closed.fault?.kind).toBe(CLOSED_UNANSWERED);
    expect(closed.fault?.message).toContain('RFC 9112 §2.2');
    // The probe does not provoke the close it would judge: nothing ends the request, so no answer comes.
    const open = await sendFramed(prepared(l.url, 500), 'chunk-size-not-hex', { maxBodyBytes: 1 << 20 });
    expect(open.fault?.kind).toBe('timeout');
    expect(lateOnly.seen).toEqual([]);
  } finally {
    await e.stop();
    await c.stop();
    await l.stop();
  }
});

test('no answer within the deadline is a timeout, given up at the deadline', async () => {
  const hang = rawServer(() => undefined);
  const s = await listening(hang.server);
  try {
    const answer = await sendFramed(prepared(s.url, 300), 'length-cut-short', { maxBodyBytes: 1 << 20 });
    expect(answer.fault?.kind).toBe('timeout');
    expect(answer.durationMs).toBeGreaterThanOrEqual(290);
    expect(answer.durationMs).toBeLessThan(2_000);
  } finally {
    await s.stop();
  }
});
