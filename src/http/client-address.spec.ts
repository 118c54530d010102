import type { IncomingMessage } from 'node:http';
import { clientAddressOf } from './client-address.js';

function request(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  return {
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    socket: { remoteAddress },
  } as unknown as IncomingMessage;
}

describe('clientAddressOf', () => {
  it('uses the socket address and ignores X-Forwarded-For without trust proxy', () => {
    expect(clientAddressOf(request('10.0.0.1', '203.0.113.9'), false)).toBe('10.0.0.1');
  });

  it('uses the first X-Forwarded-For entry with trust proxy', () => {
    expect(clientAddressOf(request('10.0.0.1', '203.0.113.9, 10.0.0.2'), true)).toBe('203.0.113.9');
  });

  it('falls back to the socket when the header is absent or empty', () => {
    expect(clientAddressOf(request('10.0.0.1'), true)).toBe('10.0.0.1');
    expect(clientAddressOf(request('10.0.0.1', ' '), true)).toBe('10.0.0.1');
  });

  it('unwraps IPv4-mapped IPv6 addresses', () => {
    expect(clientAddressOf(request('::ffff:127.0.0.1'), false)).toBe('127.0.0.1');
    expect(clientAddressOf(request('::1'), false)).toBe('::1');
  });
});
