// offends: engine-verdict-imports-only-lower-floors (a floor importing the one above it)
import { report } from '../report/leaf.ts';
export const up = report;
