/**
 * Run configuration of the conformance suites, read from the environment only:
 * the harness is pointed at an implementation through env, never by editing code.
 * `scripts/conformance.ts` sets these for the reference target.
 */
import { parseSeed } from '../../fixtures/data/seeded.ts';
import { DEFAULT_EVIDENCE_DIR } from '../verdict/evidence.ts';

export interface RunConfig {
  /** Base address, ending in /v1 (no trailing slash kept). */
  baseUrl: string;
  apiKey: string;
  /** Second tenant's key; isolation tests are "not run" without it. */
  apiKeyB?: string;
  seed: number;
  /** 'reference' when the run booted the reference target itself. */
  targetKind: 'reference' | 'external';
  /** Canvas ids to use instead of (only) those discovered through search. */
  canvasIds: string[];
  /** A canvas whose workflow API is disabled (run → 403). */
  disabledCanvasId?: string;
  /** A canvas whose executions run long enough to be aborted mid-run. */
  abortCanvasId?: string;
  /** Generate may overwrite a canvas only when this is set. */
  allowOverwrite: boolean;
  /** The canvas generate may overwrite (default: one created by a first generate call, else a discovered one). */
  overwriteCanvasId?: string;
  /** Promote should-level warnings to failures. */
  strict: boolean;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  pollIntervalMs: number;
  pollTimeoutMs: number;
  /** Upper bound on workflows the suites will run (each run may cost the target's owner). */
  maxRuns: number;
  evidenceDir: string;
}

function flag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return Math.floor(n);
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

let cached: RunConfig | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): RunConfig {
  if (cached && env === process.env) return cached;
  const baseUrl = (env.BASE_URL ?? '').trim().replace(/\/+$/, '');
  const apiKey = env.API_KEY ?? '';
  if (!baseUrl) throw new Error('BASE_URL is not set (it must end in /v1). Run through `npm run conformance` to use the reference target.');
  if (!/^https?:\/\//.test(baseUrl)) throw new Error(`BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  if (!apiKey) throw new Error('API_KEY is not set.');
  const seed = parseSeed(env.SEED);
  if (seed === undefined) throw new Error(`SEED must be a non-negative integer (got "${env.SEED ?? ''}"); npm run conformance picks and prints one.`);
  const reference = env.WFCHECK_TARGET_KIND === 'reference';
  const config: RunConfig = {
    baseUrl,
    apiKey,
    apiKeyB: env.API_KEY_B || undefined,
    seed,
    targetKind: reference ? 'reference' : 'external',
    canvasIds: list(env.WFCHECK_CANVAS_IDS),
    disabledCanvasId: env.WFCHECK_DISABLED_CANVAS_ID || undefined,
    abortCanvasId: env.WFCHECK_ABORT_CANVAS_ID || undefined,
    allowOverwrite: flag(env.WFCHECK_ALLOW_OVERWRITE),
    overwriteCanvasId: env.WFCHECK_OVERWRITE_CANVAS_ID || undefined,
    strict: flag(env.WFCHECK_STRICT),
    requestTimeoutMs: int(env.WFCHECK_REQUEST_TIMEOUT_MS, 10_000, 'WFCHECK_REQUEST_TIMEOUT_MS'),
    maxBodyBytes: int(env.WFCHECK_MAX_BODY_BYTES, 8 * 1024 * 1024, 'WFCHECK_MAX_BODY_BYTES'),
    pollIntervalMs: int(env.WFCHECK_POLL_INTERVAL_MS, reference ? 50 : 1000, 'WFCHECK_POLL_INTERVAL_MS'),
    pollTimeoutMs: int(env.WFCHECK_POLL_TIMEOUT_MS, reference ? 15_000 : 120_000, 'WFCHECK_POLL_TIMEOUT_MS'),
    maxRuns: int(env.WFCHECK_MAX_RUNS, reference ? 200 : 30, 'WFCHECK_MAX_RUNS'),
    evidenceDir: env.WFCHECK_EVIDENCE_DIR || DEFAULT_EVIDENCE_DIR,
  };
  if (env === process.env) cached = config;
  return config;
}
