import type { IncomingMessage } from 'node:http';
import { isClientAbort } from './client-abort.js';

/** `aborted` is deprecated in Node's types but still set by Node 20, and the code reads it: listed here on its own. */
const request = (fields: { complete: boolean; readableAborted?: boolean; aborted?: boolean }): IncomingMessage =>
  fields as unknown as IncomingMessage;

describe('isClientAbort', () => {
  it('is true for a request the client dropped before its body was complete', () => {
    expect(isClientAbort(request({ complete: false, readableAborted: true }))).toBe(true);
    expect(isClientAbort(request({ complete: false, aborted: true }))).toBe(true);
  });

  it('is false once the request arrived whole: a database ECONNRESET then is an outage, even if the client left', () => {
    expect(isClientAbort(request({ complete: true, readableAborted: true, aborted: true }))).toBe(false);
  });

  it('is false for a request still arriving', () => {
    expect(isClientAbort(request({ complete: false, readableAborted: false, aborted: false }))).toBe(false);
  });
});
