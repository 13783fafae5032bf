import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A file uploaded for use as a workflow variable value. */
@Entity('uploaded_files')
@Index(['tenantId', 'createdAt'])
export class UploadedFileEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  fileKey: string;

  @Column({ type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 300 })
  fileName: string;

  @Column({ type: 'varchar', length: 200 })
  mimeType: string;

  /** Size in bytes. */
  @Column({ type: 'integer' })
  size: number;

  @Column({ type: 'blob' })
  content: Buffer;

  @CreateDateColumn({ type: 'datetime' })
  createdAt: Date;

  /** Set when an execution uses the file; used files are kept. */
  @Column({ type: 'datetime', nullable: true })
  usedAt: Date | null;
}
