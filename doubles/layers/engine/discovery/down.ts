// allowed: a floor importing the floor below it, contracts and foundation
import { client } from '../client/leaf.ts';
import { check } from '../../contracts/check.ts';
import { SETTINGS } from '../../foundation/environment/config.ts';
export const down = [client, check, SETTINGS];
