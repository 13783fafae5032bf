import { expect, test } from '@playwright/test';
import { goesDirect, proxyFor, proxyUrl, readProxyEnv } from './proxy-rules.ts';

test('the proxy variables are read as Go reads them: upper case first, the scheme of the target decides', () => {
  expect(readProxyEnv({ https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2', no_proxy: 'a' })).toEqual({
    httpsProxy: 'http://up:2',
    httpProxy: undefined,
    noProxy: 'a',
    names: { httpsProxy: 'HTTPS_PROXY', httpProxy: 'HTTP_PROXY' },
  });
  expect(readProxyEnv({ https_proxy: 'http://low:1' }).names?.httpsProxy).toBe('https_proxy');
  const proxies = readProxyEnv({ HTTPS_PROXY: 'proxy.corp:3128', HTTP_PROXY: 'http://plain.corp:8080' });
  expect(proxyFor(new URL('https://api.example.com/v1'), proxies)?.url?.href).toBe('http://proxy.corp:3128/');
  expect(proxyFor(new URL('http://api.example.com/v1'), proxies)?.url?.href).toBe('http://plain.corp:8080/');
  // An https target never goes through HTTP_PROXY.
  expect(proxyFor(new URL('https://api.example.com/v1'), { httpProxy: 'http://plain:1' })).toBeUndefined();
  expect(proxyUrl('::not a url')).toBeUndefined();
});

test('a loopback target goes direct whatever the variables say, as in Go', () => {
  for (const host of ['localhost', '127.0.0.1', '127.10.0.3', '[::1]', '::1'])
    expect(goesDirect(host, '443', undefined), host).toBe(true);
  expect(goesDirect('127.0.0.1.nip.example', '443', undefined)).toBe(false);
  expect(goesDirect('10.0.0.1', '443', undefined)).toBe(false);
});

test("NO_PROXY entries: Go's documented cases (names, subdomains, addresses, ranges, ports, *)", () => {
  const cases: [entry: string, host: string, port: string, direct: boolean][] = [
    ['*', 'anything.example', '443', true],
    ['example.com', 'example.com', '443', true],
    ['example.com', 'api.example.com', '443', true],
    ['example.com', 'notexample.com', '443', false],
    ['.example.com', 'example.com', '443', false],
    ['.example.com', 'api.example.com', '443', true],
    ['*.example.com', 'api.example.com', '443', true],
    ['example.com:8443', 'example.com', '8443', true],
    ['example.com:8443', 'example.com', '443', false],
    ['10.1.2.3', '10.1.2.3', '443', true],
    ['10.1.2.3', '10.1.2.4', '443', false],
    ['10.1.2.3:80', '10.1.2.3', '443', false],
    ['10.0.0.0/8', '10.200.1.1', '443', true],
    ['10.0.0.0/8', '11.0.0.1', '443', false],
    ['fd00::/8', 'fd12:3456::1', '443', true],
    ['[2001:db8::1]:443', '[2001:db8::1]', '443', true],
    ['2001:db8::1', '2001:db8::2', '443', false],
    ['example.com', '10.1.2.3', '443', false],
    [' Example.COM , other.org', 'API.example.com', '443', true],
  ];
  for (const [entry, host, port, direct] of cases)
    expect(goesDirect(host, port, entry), `${entry} for ${host}:${port}`).toBe(direct);
  expect(
    proxyFor(new URL('https://api.internal/v1'), { httpsProxy: 'http://p:1', noProxy: 'internal' }),
  ).toBeUndefined();
  expect(proxyFor(new URL('https://api.example/v1'), { httpsProxy: 'http://p:1', noProxy: 'internal' })?.value).toBe(
    'http://p:1',
  );
});
