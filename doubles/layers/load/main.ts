// allowed: k6 modules, k6 code, contracts/check.ts, the generated validators, the environment rules and the discovery role rules
import http from 'k6/http';
import { sleep } from 'k6';
import { check } from '../contracts/check.ts';
import { validate } from '../contracts/generated/validators.js';
import { ENV } from '../foundation/environment/rules.ts';
import { discovery } from '../engine/discovery/roles.ts';
import { mix } from './flows/mix.ts';
export default function (): void {
  http.get(ENV.baseUrl);
  check(discovery);
  validate('');
  mix();
  sleep(1);
}
