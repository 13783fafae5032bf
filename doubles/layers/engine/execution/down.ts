// allowed: a floor importing the floor below it, contracts and foundation
import { discovery } from '../discovery/roles.ts';
import { check } from '../../contracts/check.ts';
import { SETTINGS } from '../../foundation/environment/config.ts';
export const down = [discovery, check, SETTINGS];
