import { describe, expect, it } from '@jest/globals';
import { isValidHost } from './host-header.js';

describe('isValidHost', () => {
  it.each([
    'localhost',
    'localhost:8080',
    'api.example.com',
    'API.Example.COM:443',
    '127.0.0.1',
    '10.0.0.1:65535',
    'my_service:8080',
    'example.com.',
    'example.com.:443',
    '[::1]',
    '[::1]:8080',
    '[2001:db8::42]:443',
    'a'.repeat(63) + '.example',
    'x:1',
  ])('accepts %s', (host) => {
    expect(isValidHost(host)).toBe(true);
  });

  it.each([
    '',
    ' ',
    'evil.com/x',
    'a b',
    'x:99999',
    'x:0',
    'x:',
    'x:-1',
    'x:8o',
    'user@host',
    'host?x',
    'host#x',
    'host\\x',
    '-leading.example',
    'trailing-.example',
    'double..dot',
    '.example',
    'example..',
    '.',
    'a'.repeat(64),
    `${'a.'.repeat(127)}a`,
    '::1',
    '[::1',
    '[::1]x',
    '[::1]:',
    '[::1]:99999',
    '[not-ipv6]',
    '[fe80::1%25eth0]',
    'host:80:80',
    'héllo.example',
  ])('refuses %j', (host) => {
    expect(isValidHost(host)).toBe(false);
  });

  it('does not let a remembered valid value vouch for another', () => {
    expect(isValidHost('good.example')).toBe(true);
    expect(isValidHost('good.example/evil')).toBe(false);
    expect(isValidHost('good.example')).toBe(true);
  });
});
