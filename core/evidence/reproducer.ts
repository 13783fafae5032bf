/**
 * curl reproducers for recorded requests. Keys never appear: a registered
 * secret is written as a reference to the variable that holds it ("$API_KEY"),
 * and the base URL as "$BASE_URL", so the command replays against the same
 * target from any shell that exports those variables.
 */
import { redactSecrets } from '../settings/redact.ts';
import { curlConnectionArgs } from '../settings/connection-settings.ts';
import { connectionInUse } from '../connection/connection.ts';

export type ReproBody =
  | { kind: 'text'; text: string; contentType?: string }
  | { kind: 'file'; path: string; contentType?: string }
  | { kind: 'multipart'; field: string; files: { name: string; type: string; bytes: number }[] };

export interface ReproRequest {
  method: string;
  url: string;
  /** Headers as sent (not yet redacted); a header sent twice has its values apart. */
  headers: Record<string, string | string[]>;
  body?: ReproBody;
}

/** Bodies longer than this are referenced as a file instead of inlined. */
export const INLINE_BODY_LIMIT = 4096;

/** Single-quotes text for a POSIX shell, letting `${NAME}` references expand. */
export function shellQuote(text: string): string {
  const parts = text.split(/(\$\{[A-Z_][A-Z0-9_]*\})/);
  const out: string[] = [];
  for (const part of parts) {
    if (part === '') continue;
    if (/^\$\{[A-Z_][A-Z0-9_]*\}$/.test(part)) out.push(`"${part}"`);
    else out.push(`'${part.replace(/'/g, `'\\''`)}'`);
  }
  return out.length === 0 ? "''" : out.join('');
}

export function curlFor(req: ReproRequest, baseUrl?: string): string {
  const url = baseUrl && req.url.startsWith(baseUrl) ? `\${BASE_URL}${req.url.slice(baseUrl.length)}` : req.url;
  const args: string[] = ['curl', '-sS', '-i', '--max-time', '30', '-X', req.method, shellQuote(redactSecrets(url))];
  // Over https, the way the request went: the CA, the client certificate, --insecure, by their variables.
  const way = connectionInUse()?.settings;
  if (way && /^https:/i.test(req.url)) args.push(...curlConnectionArgs(way));
  for (const [name, value] of Object.entries(req.headers)) {
    if (req.body?.kind === 'multipart' && name.toLowerCase() === 'content-type') continue; // curl sets the boundary
    for (const one of Array.isArray(value) ? value : [value])
      args.push('-H', shellQuote(redactSecrets(`${name}: ${one}`)));
  }
  const body = req.body;
  if (body?.kind === 'text') args.push('--data-binary', shellQuote(redactSecrets(body.text)));
  if (body?.kind === 'file') args.push('--data-binary', shellQuote(`@${body.path}`));
  if (body?.kind === 'multipart') {
    for (const f of body.files) args.push('-F', shellQuote(`${body.field}=@${f.name};type=${f.type}`));
  }
  let cmd = args.join(' ');
  if (body?.kind === 'multipart') {
    cmd += `  # files (seeded): ${body.files.map((f) => `${f.name} ${f.bytes} B`).join(', ')}`;
  }
  return cmd;
}
