// allowed: a floor importing the floor below it, contracts and foundation
import { report } from '../report/leaf.ts';
import { check } from '../../contracts/check.ts';
import { SETTINGS } from '../../foundation/environment/config.ts';
export const down = [report, check, SETTINGS];
