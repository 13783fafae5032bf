import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ENTITIES } from './entities/index.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        type: 'better-sqlite3' as const,
        database: config.databasePath,
        entities: ENTITIES,
        // The schema is derived from the entities at start-up (see CHOICES.md).
        synchronize: true,
        enableWAL: config.databasePath !== ':memory:',
        prepareDatabase: (db: { pragma: (sql: string) => unknown }) => {
          db.pragma('foreign_keys = ON');
        },
      }),
    }),
    TypeOrmModule.forFeature(ENTITIES),
  ],
  exports: [TypeOrmModule],
})
export class DatabaseModule {}
