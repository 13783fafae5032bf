/**
 * The target a load run drives: an implementation named by BASE_URL/API_KEY,
 * or the reference target booted exactly as for conformance.
 */
export interface LoadTarget { baseUrl: string; apiKey: string; how: string; stop(): Promise<void> }

export async function acquireTarget(env: NodeJS.ProcessEnv = process.env, log: (l: string) => void = console.error): Promise<LoadTarget> {
  if (env.BASE_URL) {
    if (!env.API_KEY) throw new Error('BASE_URL is set but API_KEY is not: both name the implementation under test');
    return { baseUrl: env.BASE_URL.replace(/\/+$/, ''), apiKey: env.API_KEY, how: 'BASE_URL from the environment', stop: async () => {} };
  }
  const { bootTarget: boot } = await import('../../fixtures/target/boot/boot.ts');
  log('booting the reference target…');
  const t = await boot();
  const tenant = t.tenants[0];
  if (!tenant) { await t.stop(); throw new Error('the reference target reported no tenant'); }
  log(`reference target up (${t.how}) at ${t.baseUrl}`);
  return { baseUrl: t.baseUrl, apiKey: tenant.apiKey, how: t.how, stop: () => t.stop() };
}
