/**
 * The target a command drives, resolved the same way for every command: the implementation named
 * by BASE_URL + API_KEY (+ API_KEY_B), or — BASE_URL unset — the reference target booted hermetically
 * by the booter the command hands in (a container when a Docker engine is reachable, else a local
 * process; WFCHECK_TARGET_BOOT=inprocess serves it from this process; TARGET_SEED_FILE is its seed file).
 */
import { inheritedEnvironment } from './child-environment.ts';
import type { TargetSettings } from './target-settings.ts';

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

/** A reference target up and serving: its base URL (ends in /v1), its tenants' keys, how it runs. */
export interface BootedReference {
  baseUrl: string;
  tenants: { apiKey: string }[];
  how: string;
  stop(): Promise<void>;
}

/**
 * Starts the reference target. The command that needs one hands it in (fixtures/reference/boot/booter.ts),
 * so that the core never imports a target.
 */
export interface ReferenceBooter {
  /** In a container when a Docker engine is reachable, else a local process. */
  boot(seedFile: string | undefined): Promise<BootedReference>;
  /** Served from this process, its knobs read from `env`. */
  serve(seedFile: string | undefined, env: Record<string, string>): Promise<BootedReference>;
}

export async function resolveTarget(settings: TargetSettings, booter: ReferenceBooter | undefined): Promise<Target> {
  if (settings.kind === 'external') {
    return { ...settings, how: 'given by BASE_URL', stop: async () => undefined };
  }
  if (!booter) throw new BootError(new Error('this command drives a given target only: set BASE_URL and API_KEY'));
  try {
    // The commands that serve it from this process only wait on child processes, so it costs them nothing.
    const booted = settings.inProcess
      ? await booter.serve(settings.seedFile, inheritedEnvironment())
      : await withDeadline(booter.boot(settings.seedFile), BOOT_DEADLINE_MS, 'booting the reference target');
    if (!booted.tenants[0]?.apiKey) {
      await booted.stop();
      throw new Error('the reference target reported no tenants');
    }
    return {
      baseUrl: booted.baseUrl,
      apiKey: booted.tenants[0].apiKey,
      apiKeyB: booted.tenants[1]?.apiKey,
      kind: 'reference',
      how: booted.how,
      stop: () => booted.stop(),
    };
  } catch (err) {
    throw new BootError(err);
  }
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
