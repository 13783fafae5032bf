import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { ExecutionsModule } from '../executions/executions.module.js';
import { SeedService } from './seed.service.js';

@Module({
  imports: [DatabaseModule, ExecutionsModule],
  providers: [SeedService],
})
export class SeedModule {}
