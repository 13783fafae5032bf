// offends: engine-execution-imports-only-lower-floors (a floor importing the one above it)
import { verdict } from '../verdict/leaf.ts';
export const up = verdict;
