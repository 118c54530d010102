import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { HostPolicy, hostSettingsWarning, type HostSettings } from './host-policy.js';

const PUBLIC: HostSettings = { trustProxy: false, host: '0.0.0.0', allowedHosts: [] };

function request(headers: Record<string, string>, localAddress = '192.0.2.2'): IncomingMessage {
  return { headers, httpVersionMajor: 1, httpVersionMinor: 1, socket: { localAddress } } as unknown as IncomingMessage;
}

const problemOf = (settings: HostSettings, headers: Record<string, string>, localAddress?: string) =>
  new HostPolicy(settings).problem(request(headers, localAddress));

describe('HostPolicy', () => {
  describe('on a loopback bind without ALLOWED_HOSTS (development)', () => {
    it.each(['127.0.0.1', '::1', 'localhost'])('answers any valid host when bound to %s', (host) => {
      expect(problemOf({ ...PUBLIC, host }, { host: 'anything.example:8080' })).toBeUndefined();
      expect(problemOf({ ...PUBLIC, host }, { host: 'a b' })).toMatch(/not a valid host/);
    });
  });

  describe('on a public bind without PUBLIC_URL', () => {
    it('answers the address the connection reached, and localhost over loopback, with any port', () => {
      expect(problemOf(PUBLIC, { host: '192.0.2.2:8080' })).toBeUndefined();
      expect(problemOf(PUBLIC, { host: '192.0.2.2' })).toBeUndefined();
      expect(problemOf(PUBLIC, { host: '[fd00::2]:8080' }, 'fd00::2')).toBeUndefined();
      expect(problemOf(PUBLIC, { host: '127.0.0.1:8080' }, '::ffff:127.0.0.1')).toBeUndefined();
      expect(problemOf(PUBLIC, { host: 'LocalHost:8080' }, '127.0.0.1')).toBeUndefined();
      expect(problemOf(PUBLIC, { host: 'localhost:8080' }, '::1')).toBeUndefined();
    });

    it('refuses any other host, localhost from a public address included', () => {
      for (const [host, local] of [
        ['evil.example', '192.0.2.2'],
        ['192.0.2.3', '192.0.2.2'],
        ['localhost:8080', '192.0.2.2'],
        ['127.0.0.1', '192.0.2.2'],
        ['0.0.0.0:8080', '192.0.2.2'],
      ]) {
        expect(problemOf(PUBLIC, { host: host! }, local)).toBe(
          'The Host header names a host this service does not answer to (see ALLOWED_HOSTS).',
        );
      }
    });

    it('answers HOST when it names one address or name', () => {
      expect(problemOf({ ...PUBLIC, host: 'tessera.internal' }, { host: 'Tessera.Internal.:8080' })).toBeUndefined();
      expect(problemOf({ ...PUBLIC, host: 'fd00::7' }, { host: '[fd00::7]' })).toBeUndefined();
      expect(problemOf({ ...PUBLIC, host: 'tessera.internal' }, { host: 'evil.example' })).toMatch(/does not answer/);
    });

    it('answers ALLOWED_HOSTS: a name alone with any port, a name with a port with that one only', () => {
      const settings = { ...PUBLIC, allowedHosts: ['api.example.com', 'other.example:8443', '[2001:db8::1]'] };
      for (const host of ['api.example.com', 'API.example.com.:443', 'other.example:8443', 'other.example:08443', '[2001:DB8::1]:80']) {
        expect(problemOf(settings, { host })).toBeUndefined();
      }
      for (const host of ['other.example', 'other.example:443', 'sub.api.example.com', 'example.com']) {
        expect(problemOf(settings, { host })).toMatch(/does not answer/);
      }
    });

    it('checks X-Forwarded-Host instead of Host behind a trusted proxy, and ignores it otherwise', () => {
      const settings = { ...PUBLIC, allowedHosts: ['api.example.com'] };
      const proxied = { host: 'api.example.com', 'x-forwarded-host': 'evil.example' };
      expect(problemOf({ ...settings, trustProxy: true }, proxied)).toBe(
        'The X-Forwarded-Host header names a host this service does not answer to (see ALLOWED_HOSTS).',
      );
      expect(problemOf(settings, proxied)).toBeUndefined();
      expect(
        problemOf({ ...settings, trustProxy: true }, { host: 'internal:8080', 'x-forwarded-host': 'api.example.com, x' }),
      ).toBeUndefined();
    });

    it('does not let a remembered host vouch for one on another connection', () => {
      const policy = new HostPolicy(PUBLIC);
      expect(policy.problem(request({ host: '192.0.2.2:8080' }, '192.0.2.2'))).toBeUndefined();
      expect(policy.problem(request({ host: '192.0.2.2:8080' }, '10.0.0.1'))).toMatch(/does not answer/);
      expect(policy.problem(request({ host: '192.0.2.2:8080' }, '192.0.2.2'))).toBeUndefined();
    });
  });

  describe('with PUBLIC_URL', () => {
    it('does not look at the Host beyond its presence, unless ALLOWED_HOSTS is set', () => {
      const settings = { ...PUBLIC, publicUrl: 'https://api.example.com/tessera' };
      expect(problemOf(settings, { host: 'a b' })).toBeUndefined();
      expect(problemOf(settings, {})).toBe('The request has no Host header.');
      const listed = { ...settings, allowedHosts: ['internal:8080'] };
      expect(problemOf(listed, { host: 'internal:8080' })).toBeUndefined();
      expect(problemOf(listed, { host: 'api.example.com' })).toBeUndefined();
      expect(problemOf(listed, { host: 'evil.example' })).toMatch(/does not answer/);
    });
  });
});

describe('hostSettingsWarning', () => {
  it('names PUBLIC_URL and ALLOWED_HOSTS on a public bind that has neither', () => {
    expect(hostSettingsWarning(PUBLIC)).toMatch(/^HOST is 0\.0\.0\.0, .*Set PUBLIC_URL .* or ALLOWED_HOSTS /);
  });

  it.each([
    { ...PUBLIC, host: '127.0.0.1' },
    { ...PUBLIC, publicUrl: 'https://api.example.com' },
    { ...PUBLIC, allowedHosts: ['api.example.com'] },
  ])('says nothing when the bind is loopback or either is set (%j)', (settings) => {
    expect(hostSettingsWarning(settings)).toBeUndefined();
  });
});
