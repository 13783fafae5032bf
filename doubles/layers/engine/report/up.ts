// offends: engine-report-imports-only-lower-floors (a floor importing the one above it)
import { runner } from '../runner/leaf.ts';
export const up = runner;
