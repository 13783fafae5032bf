import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * A conformance run's test runner stops when the run that started it is gone (killed outright, so it
 * could not stop its runner itself): it would go on writing into a folder the next run now owns. The
 * runner is the leader of its own process group (scenarios/run/playwright.ts), so the group goes with it.
 */
const owner = Number(process.env.WFCHECK_OWNER_PID);
if (owner > 0 && process.env.TEST_WORKER_INDEX === undefined) {
  setInterval(() => {
    if (process.ppid === owner) return;
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      process.exit(2);
    }
  }, 500).unref();
}

/**
 * Two projects share one runner:
 * - `harness`: the harness's own tests (`*.test.ts` next to the code they test).
 * - `conformance`: the scenario suites run against a target (`scenarios/*.spec.ts`);
 *   `npm run conformance` drives this project and turns its results into a verdict.
 */
export default defineConfig({
  forbidOnly: !!process.env.CI,
  // The harness's own tests mostly wait on servers each starts for itself (its own port, its own temporary
  // folder), so two run at once even on a 2-core runner, where Playwright's default (half the cores) is one.
  // `npm run conformance` names its workers itself.
  workers: Math.max(2, Math.floor(availableParallelism() / 2)),
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/harness/results.json' }]] : 'list',
  projects: [
    {
      name: 'harness',
      testDir: '.',
      testIgnore: ['.cache/**', '**/node_modules/**', 'reports/**'],
      testMatch: [
        'contracts/**/*.test.ts',
        'fixtures/**/*.test.ts',
        'core/**/*.test.ts',
        'scenarios/**/*.test.ts',
        'history/**/*.test.ts',
        'explore/**/*.test.ts',
        'matrix/**/*.test.ts',
        'load/**/*.test.ts',
        'proof/**/*.test.ts',
      ],
      timeout: 120_000,
    },
    {
      name: 'conformance',
      testDir: 'scenarios',
      testMatch: '**/*.spec.ts',
      timeout: 60_000,
      // Tests are independent (each discovers what it needs), so they spread over all workers. They
      // start in path order, so the suites that wait for whole executions live in scenarios/executions/,
      // the first folder by name, and start first.
      fullyParallel: true,
    },
  ],
});
