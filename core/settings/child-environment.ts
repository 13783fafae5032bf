/**
 * What a child process inherits of the environment, passed on unread (PATH, HOME, proxies, k6's own
 * K6_* options, and what a separate product reads with its own reader, such as the reference target's
 * fixtures/reference/config.ts).
 */
import type { EnvLike } from './rules.ts';

/** `only` keeps just those names, `without` drops those the caller writes itself. */
export function inheritedEnvironment(
  names: { only?: readonly string[]; without?: readonly string[] } = {},
  env: EnvLike = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  const dropped = new Set(names.without);
  for (const name of names.only ?? Object.keys(env)) {
    const value = env[name];
    if (value !== undefined && !dropped.has(name)) out[name] = value;
  }
  return out;
}
