// offends: engine-client-imports-only-lower-floors (a floor importing the one above it)
import { discovery } from '../discovery/roles.ts';
export const up = discovery;
