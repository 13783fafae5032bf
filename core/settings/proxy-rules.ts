/**
 * Which requests go through an egress proxy, as CI runners name them: HTTPS_PROXY for https targets,
 * HTTP_PROXY for http ones, NO_PROXY for those that go direct (the lower-case spellings too, the
 * upper-case one first).
 *
 * One rule for every mode: k6 is a Go program and decides by Go's rules (net/http's
 * ProxyFromEnvironment), so the Node modes decide by the same ones, or a run would reach a target one
 * way in its conformance and another in its load. Go's rules in short: a loopback target (localhost,
 * 127.0.0.0/8, ::1) never goes through a proxy; `NO_PROXY=*` sends nothing through one; a NO_PROXY entry
 * is an IP, a CIDR range, or a name (`example.com` and `.example.com` both cover its subdomains, and
 * `example.com` the name itself), each with an optional port.
 *
 * Pure (no Node API): what it decides is tested against Go's documented cases.
 */

/** The proxy variables as the environment holds them. */
export interface ProxyEnv {
  httpsProxy?: string;
  httpProxy?: string;
  noProxy?: string;
  /** The names they were read from (HTTPS_PROXY or https_proxy…), for messages. */
  names?: { httpsProxy: string; httpProxy: string };
}

/** The names each is read from, in the order Go reads them. */
export const PROXY_VARIABLES = {
  httpsProxy: ['HTTPS_PROXY', 'https_proxy'],
  httpProxy: ['HTTP_PROXY', 'http_proxy'],
  noProxy: ['NO_PROXY', 'no_proxy'],
} as const;

type Env = Readonly<Record<string, string | undefined>>;

function firstOf(env: Env, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

export function readProxyEnv(env: Env): ProxyEnv {
  return {
    httpsProxy: firstOf(env, PROXY_VARIABLES.httpsProxy),
    httpProxy: firstOf(env, PROXY_VARIABLES.httpProxy),
    noProxy: firstOf(env, PROXY_VARIABLES.noProxy),
    names: { httpsProxy: proxyVariableOf('https:', env), httpProxy: proxyVariableOf('http:', env) },
  };
}

/** The variable that names the proxy of a URL's scheme, as the environment spells it (for messages). */
export function proxyVariableOf(protocol: string, env: Env): string {
  const names = protocol === 'https:' ? PROXY_VARIABLES.httpsProxy : PROXY_VARIABLES.httpProxy;
  return names.find((n) => env[n]?.trim()) ?? names[0];
}

/** A proxy's address as a URL: Go reads a value without a scheme as http://. */
export function proxyUrl(value: string): URL | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return undefined;
  }
}

/** An IPv4 address as a number, or undefined. */
function ipv4(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** An IPv6 address as its eight groups, or undefined (enough of the grammar for addresses and ranges). */
function ipv6(host: string): number[] | undefined {
  if (!host.includes(':') || !/^[0-9a-f:.]+$/i.test(host)) return undefined;
  const [head = '', tail, ...more] = host.split('::');
  if (more.length) return undefined;
  const groups = (s: string) => (s ? s.split(':') : []);
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const v4 = ipv4(t.at(-1) ?? h.at(-1) ?? '');
  const words = (xs: string[]) => xs.map((g) => Number.parseInt(g, 16));
  const asV4 = (list: string[]) =>
    v4 === undefined ? words(list) : [...words(list.slice(0, -1)), Math.floor(v4 / 65536), v4 % 65536];
  const left = tail === undefined ? asV4(h) : words(h);
  const right = tail === undefined ? [] : asV4(t);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0) || [...left, ...right].some((w) => Number.isNaN(w) || w > 0xffff))
    return undefined;
  return [...left, ...Array(fill).fill(0), ...right];
}

/** An address as its bits (32 for IPv4, 128 for IPv6), or undefined for a name. */
function addressBits(host: string): { bits: boolean[]; v6: boolean } | undefined {
  const four = ipv4(host);
  if (four !== undefined) return { bits: [...four.toString(2).padStart(32, '0')].map((b) => b === '1'), v6: false };
  const six = ipv6(host);
  if (six === undefined) return undefined;
  return { bits: six.flatMap((w) => [...w.toString(2).padStart(16, '0')].map((b) => b === '1')), v6: true };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const four = ipv4(host);
  if (four !== undefined) return Math.floor(four / 2 ** 24) === 127;
  const six = ipv6(host);
  return six?.slice(0, 7).every((w) => w === 0) === true && six[7] === 1;
}

/** Whether one NO_PROXY entry covers host:port. */
function covers(entry: string, host: string, port: string): boolean {
  const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
  if (cidr) {
    const net = addressBits(cidr[1]!);
    const at = addressBits(host);
    const prefix = Number(cidr[2]);
    if (!net || !at || net.v6 !== at.v6 || prefix > net.bits.length) return false;
    return net.bits.slice(0, prefix).every((b, i) => b === at.bits[i]);
  }
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(entry) ?? [entry, entry, undefined];
  const entryHost = (m[2] !== undefined || m[1]!.startsWith('[') ? m[1]! : entry).replace(/^\[|\]$/g, '');
  const entryPort = m[2];
  if (entryPort !== undefined && entryPort !== port) return false;
  const entryIp = addressBits(entryHost);
  if (entryIp) {
    const at = addressBits(host);
    return at !== undefined && at.v6 === entryIp.v6 && at.bits.every((b, i) => b === entryIp.bits[i]);
  }
  if (addressBits(host)) return false;
  const name = entryHost.replace(/^\*\./, '.');
  if (!name) return false;
  // `.example.com` covers the subdomains only; `example.com` covers the name itself too.
  return host.endsWith(name.startsWith('.') ? name : `.${name}`) || (!name.startsWith('.') && host === name);
}

/** Whether NO_PROXY (or loopback) sends a request to host:port direct. */
export function goesDirect(host: string, port: string, noProxy: string | undefined): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopback(h)) return true;
  const entries = (noProxy ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.includes('*')) return true;
  return entries.some((e) => covers(e, h, port));
}

/**
 * The proxy a request to `url` goes through, or undefined when it goes direct. A value that is not a
 * URL is returned as given (undefined `url` of the result): the caller refuses it, naming its variable.
 */
export function proxyFor(url: URL, proxies: ProxyEnv): { value: string; url?: URL } | undefined {
  const value =
    url.protocol === 'https:' ? proxies.httpsProxy : url.protocol === 'http:' ? proxies.httpProxy : undefined;
  if (!value) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (goesDirect(url.hostname, port, proxies.noProxy)) return undefined;
  return { value, url: proxyUrl(value) };
}
