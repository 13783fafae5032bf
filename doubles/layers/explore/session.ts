// allowed: explore uses the engine's client; offends: explore-stands-on-the-engine (reaching into the suites)
import { client } from '../engine/client/leaf.ts';
import { suite } from '../scenarios/suite.ts';
export const session = () => [client, suite];
