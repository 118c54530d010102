import { loadConfig } from './app-config.js';
import { isLoopbackBind, isWildcardBind, parseAllowedHosts } from './hosts.js';

describe('ALLOWED_HOSTS', () => {
  it('is empty by default', () => {
    expect(loadConfig({}).http.allowedHosts).toEqual([]);
  });

  it('takes comma-separated host[:port] values, compared without case or final dot', () => {
    expect(loadConfig({ ALLOWED_HOSTS: 'api.example.com, API.Example.com.:08443' }).http.allowedHosts).toEqual([
      'api.example.com',
      'api.example.com:8443',
    ]);
    expect(parseAllowedHosts('10.0.0.5:8080,[2001:DB8::1],[::1]:80,my_service,api.example.com')).toEqual([
      '10.0.0.5:8080',
      '[2001:db8::1]',
      '[::1]:80',
      'my_service',
      'api.example.com',
    ]);
  });

  it.each([
    ['*', /"\*" is not allowed/],
    ['*.example.com', /no wildcards/],
    ['https://api.example.com', /not a URL/],
    ['api.example.com/x', /not a host\[:port\]/],
    ['user@api.example.com', /not a host\[:port\]/],
    ['api.example.com:99999', /not a host\[:port\]/],
    ['::1', /not a host\[:port\]/],
    ['a,,b', /empty entry/],
    [Array.from({ length: 101 }, (_, i) => `h${i}`).join(','), /at most 100/],
  ])('refuses %s, naming ALLOWED_HOSTS', (value, problem) => {
    expect(() => loadConfig({ ALLOWED_HOSTS: value })).toThrow(problem);
    expect(() => loadConfig({ ALLOWED_HOSTS: value })).toThrow(/ALLOWED_HOSTS/);
  });
});

describe('the bind address', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', 'localhost', 'LOCALHOST.', 'app.localhost', '::ffff:127.0.0.1'])('%s is loopback', (host) => {
    expect(isLoopbackBind(host)).toBe(true);
    expect(isWildcardBind(host)).toBe(false);
  });

  it.each(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0'])('%s binds every interface', (host) => {
    expect(isLoopbackBind(host)).toBe(false);
    expect(isWildcardBind(host)).toBe(true);
  });

  it.each(['10.0.0.5', '192.0.2.2', 'fd00::2', 'tessera.internal'])('%s is one public address', (host) => {
    expect(isLoopbackBind(host)).toBe(false);
    expect(isWildcardBind(host)).toBe(false);
  });
});
