// offends: engine-judging-imports-only-lower-floors (a floor importing the one above it)
import { client } from '../client/leaf.ts';
export const up = client;
