/**
 * The target every mode drives, as the environment names it: an implementation (BASE_URL, API_KEY,
 * API_KEY_B) or, BASE_URL unset, the reference target to boot. target.ts resolves and boots it.
 */
import { resolve } from 'node:path';
import { baseUrl, ENV, SettingError, text, type EnvLike } from './rules.ts';

/** Who is under test: an implementation named by the environment, or the reference target to boot. */
export type TargetSettings =
  | { kind: 'external'; baseUrl: string; apiKey: string; apiKeyB?: string }
  | { kind: 'reference'; inProcess: boolean; seedFile?: string };

/** BASE_URL + API_KEY (+ API_KEY_B) when BASE_URL is set, validated; else the reference target. */
export function readTargetSettings(env: EnvLike = process.env): TargetSettings {
  if (text(env[ENV.baseUrl]) === undefined) {
    const seedFile = text(env[ENV.targetSeedFile]);
    return {
      kind: 'reference',
      inProcess: text(env[ENV.targetBoot]) === 'inprocess',
      seedFile: seedFile && resolve(seedFile),
    };
  }
  const url = baseUrl(env[ENV.baseUrl]);
  const apiKey = text(env[ENV.apiKey]);
  if (!apiKey)
    throw new SettingError(`${ENV.baseUrl} is set but ${ENV.apiKey} is not: both name the implementation under test`);
  return { kind: 'external', baseUrl: url, apiKey, apiKeyB: text(env[ENV.apiKeyB]) };
}

/**
 * The secrets the environment holds, each with the name that holds it (redact.ts registers them): the
 * keys, and the passphrase of a client key.
 */
export function readKeys(env: EnvLike = process.env): [name: string, value: string | undefined][] {
  return [ENV.apiKey, ENV.apiKeyB, ENV.clientKeyPassphrase].map((name) => [name, env[name]]);
}

/** An address as a lock file and a refusal show it: without credentials or query. */
export function addressShown(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1').replace(/[?#].*$/, '');
}

/** The target as a lock file and a refusal name it before it is resolved: its address, or the reference target. */
export function targetNamed(settings: TargetSettings): string {
  return settings.kind === 'reference' ? 'the reference target' : addressShown(settings.baseUrl);
}

/** A resolved target as a lock file names it: its address and how it runs. */
export function targetShown(t: { baseUrl: string; kind: 'reference' | 'external'; how: string }): string {
  return `${addressShown(t.baseUrl)} (${t.kind === 'reference' ? 'reference, ' : ''}${t.how})`;
}
