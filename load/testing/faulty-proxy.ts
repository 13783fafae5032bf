/**
 * A minimal fault-injecting HTTP proxy for the load suite's own tests: it sits
 * in front of a healthy target and makes it slow, failing or non-conformant,
 * so the tests can show that the gates breach when they should.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Faults {
  /** Added latency on every response, in ms. */
  delayMs?: number;
  /** Every n-th request is answered 500 with a JSON body instead of being forwarded. */
  failEvery?: number;
  /** Every n-th response has its body replaced by non-JSON text (a contract violation). */
  corruptEvery?: number;
  /** Every n-th request is answered 429 with `Retry-After: 0` (back-pressure, to be retried). */
  rateLimitEvery?: number;
}

export interface FaultyProxy {
  baseUrl: string;
  /** Faults can be switched on after the suite's setup() so discovery still sees a healthy target. */
  setFaults(f: Faults): void;
  requests: () => number;
  close(): Promise<void>;
}

export async function startFaultyProxy(upstreamBaseUrl: string, initial: Faults = {}): Promise<FaultyProxy> {
  let faults = initial;
  const upstream = new URL(upstreamBaseUrl);
  let count = 0;
  const server = http.createServer((req, res) => {
    const n = ++count;
    const answer = (fn: () => void) => (faults.delayMs ? setTimeout(fn, faults.delayMs) : fn());
    if (faults.rateLimitEvery && n % faults.rateLimitEvery === 0) {
      req.resume();
      return answer(() => {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ success: false, errCode: 'WEBHOOK_RATE_LIMITED', errMsg: 'injected rate limit' }));
      });
    }
    if (faults.failEvery && n % faults.failEvery === 0) {
      req.resume();
      return answer(() => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, errCode: 'E0000', errMsg: 'injected failure' }));
      });
    }
    const out = http.request({
      host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers,
    }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => answer(() => {
        const corrupt = faults.corruptEvery !== undefined && n % faults.corruptEvery === 0;
        const body = corrupt ? Buffer.from('<html>injected non-JSON body</html>') : Buffer.concat(chunks);
        const headers = { ...up.headers, 'content-length': String(body.length) };
        delete headers['transfer-encoding'];
        res.writeHead(up.statusCode ?? 502, headers);
        res.end(body);
      }));
    });
    out.on('error', (err) => { res.writeHead(502); res.end(String(err)); });
    req.pipe(out);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, '')}`,
    setFaults: (f) => { faults = f; },
    requests: () => count,
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
