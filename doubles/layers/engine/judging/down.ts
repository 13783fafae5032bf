// allowed: a floor importing the floor below it, contracts and foundation
import { transport } from '../transport/leaf.ts';
import { check } from '../../contracts/check.ts';
import { SETTINGS } from '../../foundation/environment/config.ts';
export const down = [transport, check, SETTINGS];
