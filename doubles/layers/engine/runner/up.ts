// offends: engine-runner-imports-only-lower-floors (the engine importing the suites it runs)
import { suite } from '../../scenarios/suite.ts';
export const up = suite;
