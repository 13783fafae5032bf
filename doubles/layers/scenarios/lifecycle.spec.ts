// allowed: suites import the Playwright runner, the engine below its runner, the environment and data
import { test } from '@playwright/test';
import { client } from '../engine/client/leaf.ts';
import { SETTINGS } from '../foundation/environment/config.ts';
import { build } from '../foundation/data/build.ts';
test('lifecycle', () => void [client, SETTINGS, build]);
