import { describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import {
  clientErrorAnswer,
  drainConnections,
  earlyRefusal,
  installFrontDoor,
  requestLineTooLong,
  type FrontDoorSettings,
} from './front-door.js';
import { HostPolicy } from './host-policy.js';
import { recordSecurityHeaders } from './security-headers.js';

const settings: FrontDoorSettings = { maxUrlBytes: 100, trustProxy: false, corsOrigins: [], host: '127.0.0.1', allowedHosts: [] };

/** earlyRefusal with the host policy the front door would build from `given`. */
function refusal(req: IncomingMessage, given: FrontDoorSettings = settings) {
  return earlyRefusal(req, given, new HostPolicy(given));
}

function request(url: string, headers: Record<string, string> = { host: 'api.example.com' }, version = '1.1'): IncomingMessage {
  const [major, minor] = version.split('.').map(Number);
  return { url, headers, httpVersionMajor: major, httpVersionMinor: minor } as unknown as IncomingMessage;
}

describe('earlyRefusal', () => {
  it('lets an ordinary request through', () => {
    expect(refusal(request('/rest/default/demo/v1/customer?filter=name%20%3D%20%27x%27'))).toBeUndefined();
  });

  it('refuses a URL over the limit with 414 / 4140, before anything else about it', () => {
    expect(refusal(request(`/${'x'.repeat(99)}`))).toBeUndefined();
    expect(refusal(request(`/${'%'.repeat(100)}`, {}))?.errorCode).toBe(4140);
  });

  it.each(['http://evil.example/rest', '*', 'rest/x', ''])('refuses the request target %j (not a path)', (url) => {
    expect(refusal(request(url))?.errorCode).toBe(4000);
  });

  it.each(['/a%20b', '/caf%C3%A9', '/x?filter=name%20%3D%20%27Caf%c3%a9%27', '/%7e%7F'])(
    'lets the well-formed escapes in %s through',
    (url) => {
      expect(refusal(request(url))).toBeUndefined();
    },
  );

  it.each(['/a%ff', '/%', '/a?b=%', '/a?filter=%e0%a4%a', '/caf%c3', '/%c3%28', '/%g0', '/%2'])(
    'refuses the malformed percent-encoding in %s',
    (url) => {
      expect(refusal(request(url))?.message).toMatch(/percent-encoding/);
    },
  );

  it('refuses an HTTP/1.1 request without Host, and lets an HTTP/1.0 one through', () => {
    expect(refusal(request('/x', {}))?.message).toMatch(/no Host header/);
    expect(refusal(request('/x', {}, '1.0'))).toBeUndefined();
  });

  it('ignores the Host value once PUBLIC_URL fixes the origin', () => {
    expect(refusal(request('/x', { host: 'a b' }))?.errorCode).toBe(4000);
    expect(refusal(request('/x', { host: 'a b' }), { ...settings, publicUrl: 'https://api.example.com' })).toBeUndefined();
  });
});

describe('requestLineTooLong', () => {
  const packet = (text: string) => Buffer.from(text, 'latin1');

  it('is true when the request line has not ended in what overflowed', () => {
    expect(requestLineTooLong(packet(`GET /${'x'.repeat(500)}`), 100)).toBe(true);
    expect(requestLineTooLong(packet('x'.repeat(500)), 100)).toBe(true);
  });

  it('measures a complete request line against the limit', () => {
    expect(requestLineTooLong(packet(`GET /${'x'.repeat(200)} HTTP/1.1\r\nHost: a\r\n`), 100)).toBe(true);
    expect(requestLineTooLong(packet(`GET /short HTTP/1.1\r\nCookie: ${'x'.repeat(500)}`), 100)).toBe(false);
  });

  it('takes the tail of a request line that began in an earlier packet as the culprit', () => {
    expect(requestLineTooLong(packet(`${'x'.repeat(50)} HTTP/1.1\r\nHost: a\r\n`), 100)).toBe(true);
    expect(requestLineTooLong(packet(`${'x'.repeat(50)}\r\nCookie: y\r\n`), 100)).toBe(false);
  });
});

describe('clientErrorAnswer', () => {
  const error = (code: string, rawPacket?: Buffer) => Object.assign(new Error(code), { code, rawPacket });

  it('answers an oversized request line 414 / 4140 and oversized headers 400 / 4000', () => {
    expect(clientErrorAnswer(error('HPE_HEADER_OVERFLOW', Buffer.from(`GET /${'x'.repeat(300)}`)), 100).errorCode).toBe(4140);
    expect(
      clientErrorAnswer(error('HPE_HEADER_OVERFLOW', Buffer.from(`GET / HTTP/1.1\r\nCookie: ${'x'.repeat(300)}`)), 100).errorCode,
    ).toBe(4000);
  });

  it('answers anything else the parser refuses with 400 / 4000', () => {
    for (const code of [
      'HPE_INVALID_METHOD',
      'HPE_INVALID_HEADER_TOKEN',
      'HPE_UNEXPECTED_CONTENT_LENGTH',
      'ERR_HTTP_REQUEST_TIMEOUT',
      'SOMETHING_NEW',
    ]) {
      expect(clientErrorAnswer(error(code), 100).toBody()).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: expect.any(String) });
    }
  });
});

describe('drainConnections', () => {
  it('closes the connection after an answer that was queued behind another when the drain began', async () => {
    const server = createServer();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== '/slow') return void res.end('fast');
      // The signal is handled now, while the first answer is still finishing: this one waits in the queue.
      drainConnections(server);
      setTimeout(() => res.end('slow'), 20);
    });
    installFrontDoor(server, { settings, logger: pino({ level: 'silent' }), securityHeaders: recordSecurityHeaders() });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // Pipelined, in one packet: the second request is read before the first answer has finished.
    socket.write('GET /fast HTTP/1.1\r\nHost: t\r\n\r\nGET /slow HTTP/1.1\r\nHost: t\r\n\r\n');
    await closed;
    const answers = received.split('HTTP/1.1 ').slice(1);
    expect(answers).toHaveLength(2);
    expect(answers[1]).toMatch(/connection: close/i);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
