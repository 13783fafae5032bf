// offends: engine-discovery-imports-only-lower-floors (a floor importing the one above it)
import { execution } from '../execution/leaf.ts';
export const up = execution;
