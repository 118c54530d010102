import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { isClientAbort, whileClientConnected } from './client-abort.js';

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

describe('whileClientConnected', () => {
  const connection = () => {
    const socket = new EventEmitter() as EventEmitter & { destroyed: boolean };
    socket.destroyed = false;
    return { socket, request: { socket } as unknown as IncomingMessage };
  };

  it('aborts its signal when the connection closes while the work runs, and leaves no listener behind', async () => {
    const { socket, request } = connection();
    let seen: AbortSignal | undefined;
    const result = whileClientConnected(request, async (gone) => {
      seen = gone;
      expect(gone.aborted).toBe(false);
      socket.destroyed = true;
      socket.emit('close');
      return gone.aborted;
    });
    expect(await result).toBe(true);
    expect(seen?.aborted).toBe(true);
    expect(socket.listenerCount('close')).toBe(0);
  });

  it('does not abort once the work is done, and removes its listener then', async () => {
    const { socket, request } = connection();
    let seen: AbortSignal | undefined;
    await whileClientConnected(request, async (gone) => {
      seen = gone;
    });
    expect(socket.listenerCount('close')).toBe(0);
    socket.emit('close');
    expect(seen?.aborted).toBe(false);
  });

  it('starts aborted when the connection is already closed', async () => {
    const { socket, request } = connection();
    socket.destroyed = true;
    expect(await whileClientConnected(request, async (gone) => gone.aborted)).toBe(true);
  });
});
