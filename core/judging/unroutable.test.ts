/**
 * Which request targets the HTTP layer of a common stack may refuse before the API sees them, and which
 * every stack routes: ordinary, unicode, markup-looking and long ids are routed (their 4xx is the
 * operation's own, judged by its status clause).
 */
import { expect, test } from '@playwright/test';
import { httpLayerLimitOf, httpLayerRefusalOf } from './unroutable.ts';

const detail = (id: string) => new URL(`http://127.0.0.1/v1/openapi/workflows/${id}`);
const search = (query: string) => new URL(`http://127.0.0.1/v1/openapi/workflows?${query}`);

test('refused by some HTTP layer: encoded slash, backslash, NUL, percent, dot, a semicolon, broken escapes', () => {
  for (const id of [
    '..%2F..%2Fetc%2Fpasswd',
    '%2F',
    'a%5Cb',
    'abc%00def',
    '%1B',
    '%25',
    'a%2Eb',
    'a;b',
    '%ZZ',
    '%',
    '%FF',
    '%C0%AF',
  ])
    expect(httpLayerRefusalOf(detail(id)), id).toBeDefined();
  for (const query of ['keyword=%FF', 'keyword=%C0%AF', 'keyword=%ZZ'])
    expect(httpLayerRefusalOf(search(query)), query).toBeDefined();
});

test('routed by every stack: ordinary, unicode, markup-looking, spaced and long ids; any query value well encoded', () => {
  for (const id of [
    'c_acme_hello',
    encodeURIComponent('工作流-🚀'),
    '%3Cscript%3E',
    '%20spaced%20',
    '...',
    'w'.repeat(2000),
    'a%3Bb',
  ])
    expect(httpLayerRefusalOf(detail(id)), id).toBeUndefined();
  for (const query of ['keyword=a%01b', 'keyword=%E5%B7%A5', 'page=1&pageSize=20', 'keyword=a%2Fb'])
    expect(httpLayerRefusalOf(search(query)), query).toBeUndefined();
});

test("a refusal of a request target over 2,048 octets is the HTTP layer's limit, whichever 4xx; of a short one, or a 5xx, it is not", () => {
  const long = detail('w'.repeat(4_500));
  expect(httpLayerLimitOf(long, 414)).toMatch(/4\d{3} octets/);
  expect(httpLayerLimitOf(long, 431)).toBeDefined();
  // Tomcat and gunicorn answer a request line over their limit with a plain 400.
  expect(httpLayerLimitOf(long, 400)).toBeDefined();
  expect(httpLayerLimitOf(long, 500)).toBeUndefined();
  expect(httpLayerLimitOf(long, 200)).toBeUndefined();
  expect(httpLayerLimitOf(detail('c_acme_hello'), 414)).toBeUndefined();
});
