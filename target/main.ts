/**
 * Process entry of the reference target: `tsx target/main.ts` (or the bundled
 * target.mjs in the image). Configured by env — see README.md. Prints one line containing
 * "listening" and the base URL once it accepts requests; stops on SIGTERM/SIGINT.
 */
import { configFromEnv } from './config.ts';
import { buildTarget } from './server.ts';

async function main(): Promise<void> {
  const config = configFromEnv();
  const port = Number(process.env.PORT ?? 4010);
  const host = process.env.HOST ?? '127.0.0.1';
  const { app, tenants } = await buildTarget(config);
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  console.log(
    `wfcheck target listening on http://${shownHost}:${actualPort}/v1 ` +
      `(tenants: ${tenants.map((t) => t.name).join(', ')}; node step ${config.nodeDurationMs} ms` +
      `${config.devMode ? '; development mode' : ''})`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`wfcheck target stopping (${signal})`);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(`wfcheck target failed to start: ${(err as Error).message}`);
  process.exit(1);
});
