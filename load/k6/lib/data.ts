/**
 * Seeded test data, loaded once and shared read-only between VUs (SharedArray
 * keeps one copy in memory instead of one per VU).
 */
import { SharedArray } from 'k6/data';
import { ENV } from '../../../core/settings/rules.ts';
import { loadConfig, startedBy } from './config.ts';
import type { LoadData, UploadSample } from './data-shape.ts';

function readDataFile(): LoadData {
  const file = loadConfig().dataFile;
  if (!file)
    throw new Error(
      `${ENV.loadDataFile} is not set: prepare data with ${startedBy('load', ['--prepare-only'])}, or run through ${startedBy('load')}`,
    );
  return JSON.parse(open(file)) as LoadData;
}

let cached: LoadData | undefined;
const dataFile = () => (cached ??= readDataFile());

export const strings: readonly string[] = new SharedArray('strings', () => dataFile().strings);
export const keywords: readonly string[] = new SharedArray('keywords', () => dataFile().keywords);
export const uploadSamples: readonly UploadSample[] = new SharedArray('files', () => dataFile().files);
