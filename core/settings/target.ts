/**
 * The target a command drives, resolved the same way for every command: the implementation named
 * by BASE_URL + API_KEY (+ API_KEY_B), or — BASE_URL unset — the reference target booted hermetically
 * (fixtures/reference/boot/: a container when a Docker engine is reachable, else a local process;
 * WFCHECK_TARGET_BOOT=inprocess serves it from this process; TARGET_SEED_FILE is its seed file).
 */
import { inheritedEnvironment } from './child-environment.ts';
import { readTargetSettings, type TargetSettings } from './target-settings.ts';

export interface Target {
  /** Ends in /v1. */
  baseUrl: string;
  apiKey: string;
  /** A second tenant's key, when there is one. */
  apiKeyB?: string;
  kind: 'reference' | 'external';
  /** How it runs: "container", "process", "in-process", or "given by BASE_URL". */
  how: string;
  stop(): Promise<void>;
}

/** A boot that takes longer fails: a first image build fits, a hung engine does not hold a command forever. */
const BOOT_DEADLINE_MS = 120_000;

/** The reference target could not be started; the message says why (no stack: the cause is outside the code). */
export class BootError extends Error {
  constructor(cause: unknown) {
    super(`cannot start the reference target: ${(cause as Error).message ?? String(cause)}`, { cause });
    this.name = 'BootError';
  }
}

export async function resolveTarget(settings: TargetSettings = readTargetSettings()): Promise<Target> {
  if (settings.kind === 'external') {
    return { ...settings, how: 'given by BASE_URL', stop: async () => undefined };
  }
  try {
    const booted = settings.inProcess ? await startInProcess(settings.seedFile) : await boot(settings.seedFile);
    if (!booted.apiKey) {
      await booted.stop();
      throw new Error('the reference target reported no tenants');
    }
    return booted;
  } catch (err) {
    throw new BootError(err);
  }
}

async function boot(seedFile: string | undefined): Promise<Target> {
  const { bootTarget } = await import('../../fixtures/reference/boot/boot.ts');
  // A custom seed file (tenants, keys, workflows) reaches the booted target, e.g. for canary-key runs.
  const booting = bootTarget({ env: seedFile ? { TARGET_SEED_FILE: seedFile } : undefined });
  const t = await withDeadline(booting, BOOT_DEADLINE_MS, 'booting the reference target');
  return {
    baseUrl: t.baseUrl,
    apiKey: t.tenants[0]?.apiKey ?? '',
    apiKeyB: t.tenants[1]?.apiKey,
    kind: 'reference',
    how: t.how,
    stop: () => t.stop(),
  };
}

/** Served from this process: the commands that use it only wait on child processes, so it costs them nothing. */
async function startInProcess(seedFile: string | undefined): Promise<Target> {
  const { startTarget, configFromEnv } = await import('../../fixtures/reference/server.ts');
  // The same knobs as a booted target (NODE_DURATION_MS, FILE_TTL_MS, …): they come from the environment.
  const t = await startTarget({ ...configFromEnv(inheritedEnvironment()), ...(seedFile ? { seedFile } : {}) });
  return {
    baseUrl: t.baseUrl,
    apiKey: t.tenants[0]?.apiKey ?? '',
    apiKeyB: t.tenants[1]?.apiKey,
    kind: 'reference',
    how: 'in-process',
    stop: () => t.close(),
  };
}

/** One line saying which target a command drives, for its log. */
export function describeTarget(t: Target): string {
  return t.kind === 'reference' ? `reference target up (${t.how}) at ${t.baseUrl}` : `target ${t.baseUrl} (${t.how})`;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${what} did not complete within ${ms / 1000} s`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        res(v);
      },
      (e) => {
        clearTimeout(timer);
        rej(e);
      },
    );
  });
}
