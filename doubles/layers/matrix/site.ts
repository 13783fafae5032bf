// allowed: the matrix reads the history (foundation) and the catalogue (contracts); offends: matrix-builds-from-the-history (the engine that judges)
import { STORE } from '../foundation/history/store.ts';
import { check } from '../contracts/check.ts';
import { verdict } from '../engine/verdict/leaf.ts';
export const site = [STORE, check, verdict];
