import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module.js';
import { MAX_JSON_BODY } from './common/error-codes.js';
import { StderrLogger } from './common/stderr-logger.js';
import { traceIdMiddleware } from './common/trace-id.js';
import { loadConfig } from './config/app-config.js';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: new StderrLogger('WorkflowService', { colors: process.stderr.isTTY === true }),
    // Only JSON bodies are parsed (uploads go through multer); see CHOICES.md.
    bodyParser: false,
    // SIGTERM closes keep-alive connections at once instead of waiting for them to idle out.
    forceCloseConnections: true,
  });
  app.use(traceIdMiddleware);
  app.useBodyParser('json', { limit: MAX_JSON_BODY });
  app.setGlobalPrefix('v1');
  app.disable('x-powered-by');
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);

  await app.listen(config.port, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  config.publicBaseUrl = `http://127.0.0.1:${port}/v1`;
  process.stdout.write(`listening ${config.publicBaseUrl}\n`);
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
