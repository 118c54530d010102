import { ConfigError, loadConfig } from './app-config.js';
import { parseCorsOrigins } from './cors-origins.js';

describe('CORS_ORIGINS', () => {
  it('is off by default', () => {
    expect(loadConfig({}).http.corsOrigins).toEqual([]);
  });

  it('takes comma-separated origins, serialized as a browser sends them', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).http.corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(parseCorsOrigins('https://App.Example.COM:443,http://[::1]:8080,http://127.0.0.1:80')).toEqual([
      'https://app.example.com',
      'http://[::1]:8080',
      'http://127.0.0.1',
    ]);
  });

  it.each([
    ['*', /"\*" is not allowed/],
    ['https://*.example.com', /no wildcards/],
    ['https://app.example.com/', /without a path/],
    ['https://app.example.com/app', /without a path/],
    ['https://app.example.com?x=1', /without a path, query or fragment/],
    ['https://app.example.com#top', /without a path, query or fragment/],
    ['app.example.com', /not an origin/],
    ['ftp://app.example.com', /http:\/\/ or https:\/\//],
    ['https://user:pw@app.example.com', /user name or password/],
    ['null', /not an origin/],
    ['https://a.example,,https://b.example', /empty entry/],
  ])('refuses %s with one line naming CORS_ORIGINS', (value, problem) => {
    let error: unknown;
    try {
      loadConfig({ CORS_ORIGINS: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^CORS_ORIGINS: /);
    expect(problems[0]).toMatch(problem);
    expect(problems[0]).not.toContain('\n');
  });
});
