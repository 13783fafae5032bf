// allowed: a floor importing the floor below it, contracts and foundation
import { judging } from '../judging/leaf.ts';
import { check } from '../../contracts/check.ts';
import { SETTINGS } from '../../foundation/environment/config.ts';
export const down = [judging, check, SETTINGS];
