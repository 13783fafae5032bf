import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module.js';
import { ApiExceptionFilter } from './common/api-exception.filter.js';
import { ApiValidationPipe } from './common/api-validation.pipe.js';
import { EnvelopeInterceptor } from './common/envelope.interceptor.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { CopilotModule } from './copilot/copilot.module.js';
import { DatabaseModule } from './database/database.module.js';
import { ExecutionsModule } from './executions/executions.module.js';
import { FilesModule } from './files/files.module.js';
import { SeedModule } from './seed/seed.module.js';
import { WorkflowsModule } from './workflows/workflows.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        AuthModule,
        WorkflowsModule,
        ExecutionsModule,
        FilesModule,
        CopilotModule,
        SeedModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
    };
  }
}
