/**
 * Builds the seeded data file the k6 scripts load with SharedArray, from the
 * shared fixtures builders (k6 cannot run faker itself).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildFileSet, seededFaker, textValue } from '../../core/data/index.ts';
import type { LoadData } from '../k6/lib/data-shape.ts';

const STRING_COUNT = 200;
const KEYWORD_COUNT = 50;
const FILE_COUNT = 28;

export function buildLoadData(seed: number): LoadData {
  const faker = seededFaker(seed, 'load');
  // Names steer textValue towards different kinds of text, as real variable names would.
  const names = ['topic', 'email', 'name', 'url', 'city', 'date', 'query'];
  const strings = Array.from({ length: STRING_COUNT }, (_, i) => textValue(faker, names[i % names.length]));
  const keywords = Array.from({ length: KEYWORD_COUNT }, () => faker.lorem.word());
  const files = buildFileSet(faker, FILE_COUNT).map((f) => ({
    name: f.name,
    contentType: f.type,
    base64: Buffer.from(f.content).toString('base64'),
  }));
  return { seed, strings, keywords, files };
}

export function writeLoadData(path: string, seed: number): LoadData {
  const data = buildLoadData(seed);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(data));
  return data;
}

/** A run folder with the seeded data file every k6 process of the run reads; returns the file's path. */
export function prepareRunData(dir: string, seed: number): string {
  const dataFile = join(dir, 'load-data.json');
  writeLoadData(dataFile, seed);
  return dataFile;
}
