/**
 * The way this process reaches targets, one for the whole process as Node's own agents are: TLS with the
 * trusted CAs and the client certificate of the connection settings, direct or through the egress proxy
 * the environment names (an https target through a CONNECT tunnel, an http one in absolute form, as Go's
 * client does). The wire (core/transport/) sends every request through `route`, the framing probes
 * and the connection check open their sockets with `open`, so a setting means the same to each.
 *
 * A command installs it from its options (`useConnection`); a process started by one (a test worker)
 * reads it from the variables the command set, the first time it is needed.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { readConnectionSettings, type ConnectionSettings } from '../settings/connection-settings.ts';
import { proxyFor, proxyUrl } from '../settings/proxy-rules.ts';
import { SettingError } from '../settings/rules.ts';
import { loadTlsMaterial, tlsOptionsOf, type TlsMaterial } from './tls-material.ts';
import { openTunnel, proxyAuthorization, proxyName } from './tunnel.ts';

/** How http.request reaches a URL: the module, its options (agent included) and the headers it adds. */
export interface Route {
  client: typeof http | typeof https;
  options: https.RequestOptions;
  headers: Record<string, string>;
  /** The proxy it goes through (host:port), when it does. */
  via?: string;
}

/** How long opening a tunnel may take when the caller gives no deadline of its own. */
const TUNNEL_TIMEOUT_MS = 10_000;
const POOL = { keepAlive: true, maxSockets: 64 };

/** The host and port a URL names (an IPv6 address without its brackets). */
function endpoint(url: URL): { host: string; port: number } {
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
  };
}

/** The SNI name of a host: none for an address (RFC 6066 names hosts only). */
const serverName = (host: string) => (net.isIP(host) ? undefined : host);

/** An https agent whose connections go through a CONNECT tunnel of the proxy, TLS inside it. */
class TunnelAgent extends https.Agent {
  constructor(
    private readonly proxy: URL,
    options: https.AgentOptions,
  ) {
    super(options);
  }

  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const host = String(options.hostname ?? options.host ?? '').replace(/^\[|\]$/g, '');
    const port = Number(options.port) || 443;
    openTunnel(this.proxy, host, port, TUNNEL_TIMEOUT_MS).then(
      (socket) => {
        const secure = tls.connect({ ...(options as tls.ConnectionOptions), socket, servername: serverName(host) });
        callback?.(null, secure);
      },
      (err: Error) => callback?.(err, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

/** Refuses a proxy address the harness cannot use, naming the variable it came from. */
function usableProxy(value: string | undefined, variable: string): void {
  if (!value) return;
  const url = proxyUrl(value);
  // The value as said back, its credentials (user:password@) left out.
  const shown = value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^@/]*@/i, '$1***@');
  if (!url) throw new SettingError(`${variable}: "${shown}" is not a proxy address (http://host:port)`);
  if (url.protocol !== 'http:')
    throw new SettingError(
      `${variable}: a proxy reached over ${url.protocol.replace(':', '')} is not supported; give its http:// address`,
    );
}

/** Resolves with the socket once `ready` fires, rejects on its error or after `timeoutMs`. */
function whenReady<S extends net.Socket>(socket: S, ready: string, timeoutMs: number): Promise<S> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`no connection within ${timeoutMs} ms`), { name: 'TimeoutError' }));
    }, timeoutMs);
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    socket.once('error', onError);
  });
}

export class TargetConnection {
  readonly tls: TlsMaterial;
  private readonly agents = new Map<string, http.Agent>();

  constructor(readonly settings: ConnectionSettings) {
    this.tls = loadTlsMaterial(settings);
    // A proxy that cannot be used is refused now, naming its variable, not at the first request.
    const names = settings.proxies.names ?? { httpsProxy: 'HTTPS_PROXY', httpProxy: 'HTTP_PROXY' };
    usableProxy(settings.proxies.httpsProxy, names.httpsProxy);
    usableProxy(settings.proxies.httpProxy, names.httpProxy);
  }

  /** The proxy a request to `url` goes through, or undefined: direct. */
  proxyOf(url: URL): URL | undefined {
    return proxyFor(url, this.settings.proxies)?.url;
  }

  private agent(key: string, make: () => http.Agent, fresh: boolean): http.Agent {
    if (fresh) return make();
    const pooled = this.agents.get(key) ?? make();
    this.agents.set(key, pooled);
    return pooled;
  }

  /**
   * How http.request sends to `url`; `fresh`: on a connection of its own, none reused (the second try of
   * a call whose body could not be written).
   */
  route(url: URL, fresh = false): Route {
    const proxy = this.proxyOf(url);
    const pool = fresh ? { keepAlive: false } : POOL;
    const tlsOptions = tlsOptionsOf(this.tls);
    const target = urlToHttpOptions(url) as https.RequestOptions;
    if (!proxy) {
      const agent =
        url.protocol === 'https:'
          ? this.agent('https', () => new https.Agent({ ...POOL, ...pool, ...tlsOptions }), fresh)
          : this.agent('http', () => new http.Agent({ ...POOL, ...pool }), fresh);
      return { client: url.protocol === 'https:' ? https : http, options: { ...target, agent }, headers: {} };
    }
    const via = proxyName(proxy);
    if (url.protocol === 'https:') {
      const agent = this.agent(
        `tunnel ${via}`,
        () => new TunnelAgent(proxy, { ...POOL, ...pool, ...tlsOptions }),
        fresh,
      );
      return { client: https, options: { ...target, agent }, headers: {}, via };
    }
    // An http target through the proxy: the request in absolute form, to the proxy (RFC 9112 §3.2.2).
    const auth = proxyAuthorization(proxy);
    const { host, port } = endpoint(proxy);
    return {
      client: http,
      options: {
        host,
        port,
        path: url.href,
        agent: this.agent(`proxy ${via}`, () => new http.Agent({ ...POOL, ...pool }), fresh),
      },
      headers: { host: url.host, ...(auth ? { 'proxy-authorization': auth } : {}) },
      via,
    };
  }

  /**
   * A socket to the target of `url`, ready to write on: TCP, or TLS with the settings' trust and client
   * certificate (offering `alpn`), direct or through the proxy's tunnel.
   */
  async open(url: URL, o: { timeoutMs: number; alpn?: string[] }): Promise<net.Socket> {
    const { host, port } = endpoint(url);
    const proxy = this.proxyOf(url);
    const tunnel = proxy ? await openTunnel(proxy, host, port, o.timeoutMs) : undefined;
    if (url.protocol === 'https:') {
      const secure = tls.connect({
        ...(tunnel ? { socket: tunnel } : { host, port }),
        servername: serverName(host),
        ...(o.alpn ? { ALPNProtocols: o.alpn } : {}),
        ...tlsOptionsOf(this.tls),
      });
      return whenReady(secure, 'secureConnect', o.timeoutMs);
    }
    if (tunnel) return tunnel;
    return whenReady(net.connect({ host, port, allowHalfOpen: true }), 'connect', o.timeoutMs);
  }

  /** Ends the pooled connections (a command that is done with the target). */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

let current: TargetConnection | undefined;

/** Installs the connection of `settings` for this process (a command, after reading its options). */
export function useConnection(settings: ConnectionSettings): TargetConnection {
  current?.close();
  current = new TargetConnection(settings);
  return current;
}

/** The connection in use, when one was installed or made (a reproducer names its settings); never makes one. */
export function connectionInUse(): TargetConnection | undefined {
  return current;
}

/** This process's connection: the one installed, else the one the environment's variables describe. */
export function targetConnection(): TargetConnection {
  current ??= new TargetConnection(readConnectionSettings());
  return current;
}

/** An answer read whole: for the Node side's own probes of a target (a capacity search's settle probe). */
export interface TextAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One GET through this process's connection, given up after `timeoutMs` (rejects then, or on any fault). */
export function getText(url: string, headers: Record<string, string>, timeoutMs: number): Promise<TextAnswer> {
  const target = new URL(url);
  const route = targetConnection().route(target);
  return new Promise((resolve, reject) => {
    const req = route.client.request(
      { ...route.options, method: 'GET', headers: { ...headers, ...route.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const flat: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers: flat, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
