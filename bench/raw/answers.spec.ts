import { describe, expect, it } from '@jest/globals';
import { heartbeatDifference } from '../preflight.js';
import { copiedHeaders, heartbeat, heartbeatHeadersFromEnv, HEARTBEAT_HEADERS_ENV } from './answers.js';

const TESSERA = new Headers([
  ['x-request-id', '98cab0df-25e7-4e88-83b1-2914cfbe75ef'],
  ['content-security-policy', "default-src 'self'"],
  ['x-frame-options', 'SAMEORIGIN'],
  ['cache-control', 'no-store'],
  ['Content-Type', 'application/json; charset=utf-8'],
  ['Content-Length', '15'],
  ['Date', 'Fri, 27 Nov 2026 09:34:09 GMT'],
  ['Connection', 'keep-alive'],
  ['Keep-Alive', 'timeout=65'],
]);

describe("the reference servers' W0 answer", () => {
  it("copies Tessera's own headers, in its order, and leaves out what the HTTP layer writes", () => {
    expect(Object.entries(copiedHeaders(TESSERA))).toEqual([
      ['cache-control', 'no-store'],
      ['content-security-policy', "default-src 'self'"],
      ['x-frame-options', 'SAMEORIGIN'],
      ['x-request-id', '98cab0df-25e7-4e88-83b1-2914cfbe75ef'],
    ]);
    expect(copiedHeaders([['X-Frame-Options', 'DENY']])).toEqual({ 'x-frame-options': 'DENY' });
  });

  it('answers {"status":"OK"} with those headers, and a request id of its own each time, where Tessera sends one', () => {
    const copied = copiedHeaders(TESSERA);
    const answer = heartbeat(copied);
    const [a, b] = [answer(), answer()];
    expect(a.status).toBe(200);
    expect(JSON.stringify(a.body)).toBe('{"status":"OK"}');
    expect(Object.keys(a.headers)).toEqual(Object.keys(copied));
    expect(a.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    expect(a.headers['x-request-id']).not.toBe(copied['x-request-id']);
    expect(heartbeat({})().headers).toEqual({});
  });

  it('reads the headers the harness passes in the environment, none when unset', () => {
    expect(heartbeatHeadersFromEnv({ [HEARTBEAT_HEADERS_ENV]: '{"cache-control":"no-store"}' })).toEqual({ 'cache-control': 'no-store' });
    expect(heartbeatHeadersFromEnv({})).toEqual({});
  });

  it('tells two W0 answers apart by status, body or a header, but not by the request id or the date', () => {
    const tessera = { status: 200, body: '{"status":"OK"}', headers: copiedHeaders(TESSERA) };
    const raw = { ...tessera, headers: heartbeat(tessera.headers)().headers };
    expect(heartbeatDifference(tessera, raw)).toBeUndefined();
    expect(heartbeatDifference(tessera, { ...raw, status: 404 })).toMatch(/status 200 and 404/);
    expect(heartbeatDifference(tessera, { ...raw, body: '{"status":"ok"}' })).toMatch(/body/);
    const { 'x-frame-options': _, ...fewer } = raw.headers;
    expect(heartbeatDifference(tessera, { ...raw, headers: fewer })).toBe('header(s) x-frame-options: SAMEORIGIN and (none)');
    const { 'x-request-id': __, ...noId } = raw.headers;
    expect(heartbeatDifference(tessera, { ...raw, headers: noId })).toMatch(/x-request-id/);
  });
});
