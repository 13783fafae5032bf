/**
 * Runtime configuration: command-line arguments (--port, --speed, --db) and
 * environment variables (WF_KEY_A, WF_KEY_B, WF_DB, NODE_ENV).
 */
export const APP_CONFIG = Symbol('APP_CONFIG');

export interface AppConfig {
  /** TCP port to bind on 127.0.0.1; 0 lets the OS pick a free port. */
  port: number;
  /** Multiplier applied to every simulated execution duration (1 = nominal). */
  speed: number;
  /** API key of tenant A (Northwind Outfitters). */
  keyTenantA: string;
  /** API key of tenant B (Harbor Dental Group). */
  keyTenantB: string;
  /** SQLite database file; ':memory:' keeps everything in the process. */
  databasePath: string;
  /** true when NODE_ENV=development: error bodies then carry a stack. */
  development: boolean;
  /** Public base address ending in /v1; filled in once the port is known. */
  publicBaseUrl: string;
}

export const DEFAULT_KEY_TENANT_A = 'wfk-northwind-4f7c2a9e81d35b60';
export const DEFAULT_KEY_TENANT_B = 'wfk-harbordental-9b1e6d3c07a2f458';

function readOption(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === `--${name}`) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        throw new Error(`option --${name} needs a value`);
      }
      return next;
    }
    if (arg.startsWith(`--${name}=`)) {
      return arg.slice(name.length + 3);
    }
  }
  return undefined;
}

export function loadConfig(argv: string[] = process.argv.slice(2), env = process.env): AppConfig {
  const portText = readOption(argv, 'port') ?? env.PORT ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid --port value: ${portText}`);
  }
  const speedText = readOption(argv, 'speed') ?? '1';
  const speed = Number(speedText);
  if (!Number.isFinite(speed) || speed < 0) {
    throw new Error(`invalid --speed value: ${speedText} (a number >= 0 is expected)`);
  }
  const keyTenantA = (env.WF_KEY_A ?? '').trim() || DEFAULT_KEY_TENANT_A;
  const keyTenantB = (env.WF_KEY_B ?? '').trim() || DEFAULT_KEY_TENANT_B;
  if (keyTenantA === keyTenantB) {
    throw new Error('WF_KEY_A and WF_KEY_B must differ');
  }
  return {
    port,
    speed,
    keyTenantA,
    keyTenantB,
    databasePath: readOption(argv, 'db') ?? env.WF_DB ?? ':memory:',
    development: env.NODE_ENV === 'development',
    publicBaseUrl: `http://127.0.0.1:${port}/v1`,
  };
}
