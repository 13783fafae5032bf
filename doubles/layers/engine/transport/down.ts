// allowed: a floor importing the floor below it, contracts and foundation
import { evidence } from '../evidence/leaf.ts';
import { check } from '../../contracts/check.ts';
import { SETTINGS } from '../../foundation/environment/config.ts';
export const down = [evidence, check, SETTINGS];
