import { Controller, Get, HttpCode, Param, Post, StreamableFile, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { FileFieldsInterceptor } from '@nestjs/platform-express';
import { Tenant } from '../auth/tenant.decorator.js';
import { MAX_UPLOAD_FILE_MB, MAX_UPLOAD_FILES } from '../common/error-codes.js';
import type { TenantPrincipal } from '../common/request-context.js';
import { FilesService, IncomingFile } from './files.service.js';

type UploadFields = { files?: IncomingFile[]; 'files[]'?: IncomingFile[] };

@Controller('openapi')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  /** 4.7 Upload files (multipart/form-data, field "files"); returns one fileKey per file. */
  @Post('files/upload')
  @HttpCode(200)
  @UseInterceptors(
    FileFieldsInterceptor(
      [
        { name: 'files', maxCount: MAX_UPLOAD_FILES },
        // Some clients append [] to repeated form fields.
        { name: 'files[]', maxCount: MAX_UPLOAD_FILES },
      ],
      {
        defParamCharset: 'utf8',
        limits: {
          fileSize: MAX_UPLOAD_FILE_MB * 1024 * 1024,
          files: MAX_UPLOAD_FILES,
          fields: 20,
          parts: MAX_UPLOAD_FILES + 20,
        },
      },
    ),
  )
  async upload(@Tenant() tenant: TenantPrincipal, @UploadedFiles() uploaded: UploadFields | undefined) {
    const incoming = [...(uploaded?.files ?? []), ...(uploaded?.['files[]'] ?? [])];
    return { files: await this.files.store(tenant.tenantId, incoming) };
  }

  /** Download of an execution's output file: the target of data.files[].url (not in the specification). */
  @Get('drive/files/:fileId')
  async download(@Tenant() tenant: TenantPrincipal, @Param('fileId') fileId: string): Promise<StreamableFile> {
    const file = await this.files.getDriveFile(tenant.tenantId, fileId);
    return new StreamableFile(file.content, {
      type: file.type,
      length: file.size,
      disposition: `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    });
  }
}
