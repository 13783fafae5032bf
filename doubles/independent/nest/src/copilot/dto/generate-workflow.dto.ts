import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_CONTENT_CHARS } from '../../common/error-codes.js';

export const SUPPORTED_LOCALES = [
  'en', 'zh-CN', 'ja', 'zh-Hant', 'fr', 'de-DE', 'ko', 'hi', 'es', 'ru',
  'de', 'it', 'tr', 'pt', 'vi', 'id', 'th', 'ar', 'mn', 'fa',
] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/** Body of POST /openapi/copilot/workflow/generate (section 4.8). */
export class GenerateWorkflowDto {
  @IsString({ message: 'query must be a string' })
  @IsNotEmpty({ message: 'query must not be empty' })
  @MaxLength(MAX_CONTENT_CHARS, { message: 'query is too long; maximum length 100k characters' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  query: string;

  @IsOptional()
  @IsString({ message: 'canvasId must be a string' })
  @IsNotEmpty({ message: 'canvasId must not be empty' })
  @MaxLength(64)
  canvasId?: string;

  @IsOptional()
  @IsIn(SUPPORTED_LOCALES, { message: `locale must be one of: ${SUPPORTED_LOCALES.join(', ')}` })
  locale?: SupportedLocale;
}
