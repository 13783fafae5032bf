import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A file written by a node of an execution (the "drive" files of the output). */
@Entity('drive_files')
@Index(['executionId', 'createdAt'])
export class DriveFileEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  fileId: string;

  @Column({ type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 64 })
  executionId: string;

  @Column({ type: 'varchar', length: 64 })
  nodeId: string;

  @Column({ type: 'varchar', length: 300 })
  name: string;

  @Column({ type: 'varchar', length: 120 })
  type: string;

  /** Size in bytes. */
  @Column({ type: 'integer' })
  size: number;

  @Column({ type: 'blob' })
  content: Buffer;

  @CreateDateColumn({ type: 'datetime' })
  createdAt: Date;
}
