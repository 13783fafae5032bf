// allowed: the engine below its runner; offends: suites-stand-on-the-engine (twice: the target's internals and the engine's runner)
import { client } from '../engine/client/leaf.ts';
import { serve } from '../target/server.ts';
import { runner } from '../engine/runner/leaf.ts';
export const call = () => [client, serve, runner];
