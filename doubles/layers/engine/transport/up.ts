// offends: engine-transport-imports-only-lower-floors (a floor importing the one above it)
import { judging } from '../judging/leaf.ts';
export const up = judging;
