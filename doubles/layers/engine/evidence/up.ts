// offends: engine-evidence-imports-only-lower-floors (a floor importing the one above it)
import { transport } from '../transport/leaf.ts';
export const up = transport;
