/**
 * The generative mode against a fresh reference target (in process), behind a mutating proxy when an
 * entry is given: the way the proof runs it for the input-crash entries and the mutation table.
 */
import type { Mutant } from '../fixtures/faults/catalogue.ts';
import { startMutatingProxy } from '../fixtures/faults/proxy.ts';
import { readExploreSettings } from '../explore/settings.ts';
import { ENV } from '../core/settings/rules.ts';
import { explore, type ExploreOptions } from '../explore/explore.ts';
import { exploreOptionsOf } from '../explore/explore-run.ts';
import { startTarget } from '../fixtures/reference/server.ts';

/**
 * Explores a fresh reference target, behind `mutant` when given, with the defaults of `npm run explore`
 * for the reference target: its budget and footprint caps, and overwriting allowed (the target is thrown
 * away afterwards), which lets generate's failures shrink without creating a canvas per step.
 */
export async function exploreBehind(mutant: Mutant | undefined, seed: number, tune: Partial<ExploreOptions> = {}) {
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const proxy = mutant ? await startMutatingProxy(target.baseUrl, { A: a!.apiKey, B: b?.apiKey }, mutant) : undefined;
  const baseUrl = proxy?.baseUrl ?? target.baseUrl;
  // What `npm run explore` reads for the proxy: an external target (BASE_URL set) that is the reference one.
  const s = readExploreSettings(
    {},
    { [ENV.baseUrl]: baseUrl, [ENV.apiKey]: a!.apiKey, [ENV.seed]: String(seed), [ENV.allowOverwrite]: '1' },
  );
  try {
    const { report, bodies } = await explore(
      {
        baseUrl,
        apiKey: a!.apiKey,
        apiKeyB: b?.apiKey,
        kind: 'external',
        how: mutant ? `behind ${mutant.id}` : 'in-process',
      },
      { ...exploreOptionsOf(s), ...tune },
    );
    return {
      report,
      bodies,
      keys: [a!.apiKey, b?.apiKey ?? ''],
      proxyErrors: proxy?.errors() ?? [],
      /** Requests the proxy passed on; absent without a proxy (the report's footprint counts them). */
      proxyRequests: proxy?.requests(),
    };
  } finally {
    await proxy?.close();
    await target.close();
  }
}
