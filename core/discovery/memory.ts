/**
 * What discovery learned about a target, kept between runs: which workflows filled which role.
 * A nightly job against a staging target that lives for months re-validates these first (one detail
 * read each) instead of searching an account that grows every night.
 *
 * The file is named by the base URL and a fingerprint of the key — never the key itself — so two
 * tenants of one target, or two targets, never share what they learned.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLE_NAMES, type Behaviour, type Role } from './roles.ts';

export interface RememberedWorkflow {
  canvasId: string;
  title: string;
  roles: Role[];
  /** What its trial showed: the next run fills the roles of behaviour from it without running it again. */
  behaviour?: Behaviour;
  shown?: string;
  /** How long its trial saw it running (ms): the slow role goes to the longest. */
  ranMs?: number;
  /** Whether an execution its trial saw end wrote files: the file clauses are judged on one that does. */
  writesFiles?: boolean;
  /** Made by the harness through generate for a shape the account lacked: not made again while it stands. */
  made?: boolean;
}

const BEHAVIOURS: readonly Behaviour[] = ['disabled', 'failing', 'long-running', 'finishes'];

export interface DiscoveryMemory {
  version: 1;
  baseUrl: string;
  keyFingerprint: string;
  savedAt: string;
  workflows: RememberedWorkflow[];
  /** Roles no workflow filled when this was saved: the next run searches for them again. */
  missingRoles: Role[];
}

/** Files not written for this long belong to targets no longer tested. */
const FORGET_AFTER_MS = 30 * 24 * 3600_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Identifies a key without revealing it: enough to tell two tenants apart, useless to call the API with. */
export function keyFingerprint(apiKey: string): string {
  return `sha256:${sha256(apiKey).slice(0, 12)}`;
}

export function memoryFile(cacheDir: string, baseUrl: string, apiKey: string): string {
  return join(cacheDir, 'discovery', `${sha256(`${baseUrl}\n${keyFingerprint(apiKey)}`).slice(0, 20)}.json`);
}

/** The memory for this target and key, or undefined when there is none or it cannot be read (then discovery starts afresh). */
export function readMemory(file: string, baseUrl: string, apiKey: string): DiscoveryMemory | undefined {
  let memory: DiscoveryMemory;
  try {
    memory = JSON.parse(readFileSync(file, 'utf8')) as DiscoveryMemory;
  } catch {
    return undefined;
  }
  const valid =
    memory?.version === 1 &&
    memory.baseUrl === baseUrl &&
    memory.keyFingerprint === keyFingerprint(apiKey) &&
    Array.isArray(memory.workflows) &&
    memory.workflows.every((w) => typeof w?.canvasId === 'string' && Array.isArray(w.roles));
  if (!valid) return undefined;
  return {
    ...memory,
    workflows: memory.workflows.map(({ behaviour, shown, ranMs, writesFiles, made, ...w }) => ({
      ...w,
      ...(typeof ranMs === 'number' && Number.isFinite(ranMs) ? { ranMs } : {}),
      ...(typeof writesFiles === 'boolean' ? { writesFiles } : {}),
      ...(made === true ? { made } : {}),
      roles: w.roles.filter((r) => ROLE_NAMES.includes(r)),
      // A memory written before trials existed, or by hand, has none: the workflow counts as never run.
      ...(behaviour && BEHAVIOURS.includes(behaviour)
        ? { behaviour, shown: typeof shown === 'string' ? shown : '' }
        : {}),
    })),
  };
}

/** Written whole or not at all (a rename), so a run cut short never leaves a torn file; stale siblings are pruned. */
export function writeMemory(file: string, memory: DiscoveryMemory): void {
  const dir = join(file, '..');
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(memory, null, 2));
  renameSync(tmp, file);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (path !== file && Date.now() - statSync(path).mtimeMs > FORGET_AFTER_MS) rmSync(path, { force: true });
    } catch {
      // Another run pruned it first.
    }
  }
}
