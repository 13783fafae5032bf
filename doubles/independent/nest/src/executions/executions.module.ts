import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { FilesModule } from '../files/files.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { ExecutionRunner } from './execution-runner.service.js';
import { ExecutionsController } from './executions.controller.js';
import { ExecutionsService } from './executions.service.js';

@Module({
  imports: [DatabaseModule, WorkflowsModule, FilesModule],
  controllers: [ExecutionsController],
  providers: [ExecutionsService, ExecutionRunner],
  exports: [ExecutionRunner],
})
export class ExecutionsModule {}
