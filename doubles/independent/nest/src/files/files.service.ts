import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, LessThan, Repository } from 'typeorm';
import { ApiException } from '../common/api.exception.js';
import { ErrorCode } from '../common/error-codes.js';
import { newId } from '../common/ids.js';
import { DriveFileEntity, UploadedFileEntity } from '../database/entities/index.js';

/** Unused uploads are removed after this long (section 4.7: "about 24 hours"). */
export const UPLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;
const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

export interface IncomingFile {
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (cleaned || 'file').slice(0, 255);
}

@Injectable()
export class FilesService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FilesService.name);
  private cleanupTimer?: NodeJS.Timeout;

  constructor(
    @InjectRepository(UploadedFileEntity) private readonly uploads: Repository<UploadedFileEntity>,
    @InjectRepository(DriveFileEntity) private readonly driveFiles: Repository<DriveFileEntity>,
  ) {}

  onModuleInit(): void {
    this.cleanupTimer = setInterval(() => {
      this.removeExpiredUploads().catch((err: unknown) => this.logger.error(`Upload clean-up failed: ${String(err)}`));
    }, CLEANUP_INTERVAL_MS);
    this.cleanupTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.cleanupTimer);
  }

  async store(tenantId: string, files: IncomingFile[]): Promise<{ fileKey: string; fileName: string }[]> {
    if (files.length === 0) {
      throw ApiException.badRequest('No files: send one or more files in the multipart/form-data field "files"');
    }
    const empty = files.find((f) => f.size === 0);
    if (empty) {
      throw ApiException.badRequest(`File "${cleanFileName(empty.originalname)}" is empty`);
    }
    const entities = files.map((f) =>
      this.uploads.create({
        fileKey: newId('uf'),
        tenantId,
        fileName: cleanFileName(f.originalname),
        mimeType: f.mimetype || 'application/octet-stream',
        size: f.size,
        content: f.buffer,
        usedAt: null,
      }),
    );
    await this.uploads.save(entities);
    return entities.map((e) => ({ fileKey: e.fileKey, fileName: e.fileName }));
  }

  /** Resolves file keys of the tenant; 400 (E1012) naming the first unknown key. */
  async resolveKeys(tenantId: string, fileKeys: string[]): Promise<UploadedFileEntity[]> {
    const unique = [...new Set(fileKeys)];
    const found = unique.length
      ? await this.uploads.find({
          where: { tenantId, fileKey: In(unique) },
          select: { fileKey: true, fileName: true, mimeType: true, size: true, tenantId: true },
        })
      : [];
    const byKey = new Map(found.map((f) => [f.fileKey, f]));
    const missing = unique.find((k) => !byKey.has(k));
    if (missing !== undefined) {
      throw ApiException.badRequest(`Upload file not found: ${missing}`, ErrorCode.UPLOAD_FILE_NOT_FOUND);
    }
    return fileKeys.map((k) => byKey.get(k)!);
  }

  async markUsed(fileKeys: string[]): Promise<void> {
    if (fileKeys.length) {
      await this.uploads.update({ fileKey: In([...new Set(fileKeys)]) }, { usedAt: new Date() });
    }
  }

  async removeExpiredUploads(now = Date.now()): Promise<number> {
    const result = await this.uploads.delete({ usedAt: IsNull(), createdAt: LessThan(new Date(now - UPLOAD_RETENTION_MS)) });
    const removed = result.affected ?? 0;
    if (removed) {
      this.logger.log(`Removed ${removed} unused upload(s) older than 24 hours`);
    }
    return removed;
  }

  async getDriveFile(tenantId: string, fileId: string): Promise<DriveFileEntity> {
    const file = await this.driveFiles.findOneBy({ tenantId, fileId });
    if (!file) {
      throw new ApiException(404, ErrorCode.DRIVE_FILE_NOT_FOUND, `Drive file ${fileId} not found`);
    }
    return file;
  }
}
