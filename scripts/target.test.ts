import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { bootTarget, type BootedTarget } from './target.ts';

function dockerReachable(): boolean {
  try {
    execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

async function expectServes(target: BootedTarget): Promise<void> {
  expect(target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  expect(target.tenants.length).toBeGreaterThanOrEqual(2);
  const res = await fetch(`${target.baseUrl}/openapi/workflows`, { headers: { authorization: `Bearer ${target.tenants[1].apiKey}` } });
  expect(res.status).toBe(200);
}

test('process mode boots on a free port, serves, and stops', async () => {
  const logs: string[] = [];
  const target = await bootTarget({ mode: 'process', nodeDurationMs: 1, log: (l) => logs.push(l) });
  try {
    expect(target.how).toBe('process');
    await expectServes(target);
    expect(logs.join('\n')).toContain('local process');
  } finally {
    await target.stop();
  }
  await expect(fetch(`${target.baseUrl}/openapi/workflows`)).rejects.toThrow();
});

test('auto mode falls back to a process, saying why, when no Docker engine is reachable', async () => {
  const saved = process.env.DOCKER_HOST;
  process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';
  const logs: string[] = [];
  try {
    const target = await bootTarget({ mode: 'auto', log: (l) => logs.push(l) });
    try {
      expect(target.how).toBe('process');
      await expectServes(target);
    } finally {
      await target.stop();
    }
  } finally {
    if (saved === undefined) delete process.env.DOCKER_HOST;
    else process.env.DOCKER_HOST = saved;
  }
  expect(logs[0]).toContain('no Docker engine reachable');
});

test('container mode runs the image with a custom seed file and stops it', async () => {
  test.skip(!dockerReachable(), 'no Docker engine reachable on this machine');
  const seedFile = test.info().outputPath('seed.json');
  writeFileSync(
    seedFile,
    JSON.stringify({
      tenants: [
        { name: 'one', apiKey: 'key-one', workflows: [{ canvasId: 'c1', createdAt: '2026-01-01T00:00:00Z', plan: { title: 'Only', tasks: [{ id: 't', title: 'T', prompt: 'p', toolsets: [], dependentTasks: [] }], variables: [] } }] },
        { name: 'two', apiKey: 'key-two', workflows: [] },
      ],
    }),
  );
  const target = await bootTarget({ mode: 'container', env: { TARGET_SEED_FILE: seedFile } });
  try {
    expect(target.how).toBe('container');
    await expectServes(target);
    expect(target.tenants.map((t) => t.apiKey)).toEqual(['key-one', 'key-two']);
    const res = await fetch(`${target.baseUrl}/openapi/workflows`, { headers: { authorization: 'Bearer key-one' } });
    expect((await res.json()).data).toEqual([{ canvasId: 'c1', title: 'Only' }]);
  } finally {
    await target.stop();
  }
});
