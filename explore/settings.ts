/** The settings of `wfcheck explore`, the generative mode. */
import { join, resolve } from 'node:path';
import { randomSeed } from '../core/data/seeded.ts';
import {
  CONNECTION_OPTIONS,
  readConnectionSettings,
  type ConnectionArgs,
  type ConnectionSettings,
} from '../core/settings/connection-settings.ts';
import { readImplementation, type Implementation, type ImplementationArgs } from '../core/settings/history-settings.ts';
import { optionOrEnv } from '../core/settings/option-or-env.ts';
import { WORK_DIR } from '../core/settings/roots.ts';
import { ENV, flag, list, number, positiveInt, text, wholeNumber, type EnvLike } from '../core/settings/rules.ts';
import { readTargetSettings, type TargetSettings } from '../core/settings/target-settings.ts';

/** Where a generative run writes its report unless --out says otherwise. */
export const EXPLORE_OUT_DIR = join(WORK_DIR, 'reports', 'explore');

/** The options table of `wfcheck explore`, for node:util parseArgs. */
export const EXPLORE_OPTIONS = {
  seed: { type: 'string' },
  'budget-s': { type: 'string' },
  requests: { type: 'string' },
  only: { type: 'string' },
  'max-executions': { type: 'string' },
  'max-canvases': { type: 'string' },
  out: { type: 'string' },
  name: { type: 'string' },
  'target-version': { type: 'string' },
  ...CONNECTION_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const;

/** Its options as node:util parseArgs gives them. */
export interface ExploreArgs extends ImplementationArgs, ConnectionArgs {
  seed?: string;
  'budget-s'?: string;
  requests?: string;
  out?: string;
  only?: string;
  'max-executions'?: string;
  'max-canvases'?: string;
}

export interface ExploreSettings {
  seed: number;
  /** The seed was given (--seed or SEED), not picked for this run. */
  seedGiven: boolean;
  /** Seconds for the whole exploration (setup and cleanup included); default 60. */
  budgetS: number;
  /** Requests per operation; default 160. */
  requestsPerOperation: number;
  /** Operation ids named by --only (comma-separated), as given; empty: every operation. */
  only: string[];
  /** Absolute. */
  outDir: string;
  /** Executions the exploration may start; default 30. */
  maxExecutions: number;
  /** Canvases generate may create; default 12. */
  maxCanvasesCreated: number;
  /** WFCHECK_ALLOW_OVERWRITE; unset: allowed on the reference target only (it is thrown away after the run). */
  allowOverwrite: boolean;
  overwriteCanvasId?: string;
  /** WFCHECK_CANVAS_IDS: canvases read before those search lists. */
  canvasIds: string[];
  requestTimeoutMs?: number;
  target: TargetSettings;
  /** The way to the target: trust, client certificate, proxies (connection-settings.ts). */
  connection: ConnectionSettings;
  /** The implementation the run is recorded under (--name); undefined: its target alone. */
  implementation?: Implementation;
}

export function readExploreSettings(args: ExploreArgs, env: EnvLike = process.env): ExploreSettings {
  const seed = wholeNumber(...optionOrEnv(args.seed, '--seed', env, ENV.seed));
  const target = readTargetSettings(env);
  return {
    seed: seed ?? randomSeed(),
    seedGiven: seed !== undefined,
    budgetS: number(args['budget-s'], '--budget-s', 60, { positive: true }),
    requestsPerOperation: positiveInt(args.requests, '--requests', 160),
    only: list(args.only),
    outDir: resolve(WORK_DIR, text(args.out) ?? EXPLORE_OUT_DIR),
    maxExecutions: wholeNumber(args['max-executions'], '--max-executions', 30),
    maxCanvasesCreated: wholeNumber(args['max-canvases'], '--max-canvases', 12),
    allowOverwrite: flag(env[ENV.allowOverwrite], ENV.allowOverwrite, target.kind === 'reference'),
    overwriteCanvasId: text(env[ENV.overwriteCanvasId]),
    canvasIds: list(env[ENV.canvasIds]),
    requestTimeoutMs: positiveInt(env[ENV.requestTimeoutMs], ENV.requestTimeoutMs),
    target,
    connection: readConnectionSettings(args, env),
    implementation: readImplementation(args, env),
  };
}
