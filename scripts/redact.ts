/**
 * Secret redaction for every artifact the harness writes (evidence, reports,
 * reproducers, console output).
 *
 * Secrets are registered by value together with the environment variable that
 * holds them, so a redacted text can still say *which* key was used
 * (`${API_KEY}`), and a curl reproducer stays runnable by a person who has the
 * key in their own environment.
 */

const SECRET_ENV_NAMES = ['API_KEY', 'API_KEY_B'] as const;

/** Shorter values are not treated as secrets: replacing them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 6;

const registered = new Map<string, string>(); // secret value → env var name

export function registerSecret(value: string | undefined, envName: string): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  registered.set(value, envName);
}

/** Registers the keys found in the given environment (defaults to process.env). */
export function registerSecretsFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of SECRET_ENV_NAMES) registerSecret(env[name], name);
}

registerSecretsFromEnv();

/** Secret values, longest first so that a key containing another key is replaced whole. */
function secretsByLength(): [string, string][] {
  return [...registered.entries()].sort((a, b) => b[0].length - a[0].length);
}

/** Replaces every registered secret in `text` with `${ENV_NAME}`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [value, name] of secretsByLength()) {
    if (out.includes(value)) out = out.split(value).join('${' + name + '}');
  }
  return out;
}

/** True when `text` still contains a registered secret (used to verify written artifacts). */
export function containsSecret(text: string): boolean {
  for (const value of registered.keys()) if (text.includes(value)) return true;
  return false;
}

const KNOWN_SCHEMES = new Set(['bearer', 'basic', 'token', 'digest', 'apikey']);

/**
 * An Authorization value as it may appear in an artifact: the scheme is kept
 * (it is what auth checks vary), the credential never is.
 */
export function redactAuthorization(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') return '(empty)';
  const space = trimmed.indexOf(' ');
  if (space < 0) return KNOWN_SCHEMES.has(trimmed.toLowerCase()) ? trimmed : '***';
  return `${trimmed.slice(0, space)} ***`;
}

const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Header map safe to store: credentials masked, any registered secret replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') out[name] = redactAuthorization(value);
    else if (SENSITIVE_HEADERS.has(lower)) out[name] = '***';
    else out[name] = redactSecrets(value);
  }
  return out;
}

/** Deep redaction of a JSON-like value (strings have secrets replaced). */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = k.toLowerCase() === 'authorization' && typeof v === 'string' ? redactAuthorization(v) : redactValue(v);
    }
    return out as T;
  }
  return value;
}
