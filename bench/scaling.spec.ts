import { describe, expect, it, jest } from '@jest/globals';
import type { TokenMode } from './auth-step.js';
import { side, startInTurn } from './scaling.js';
import type { ServerProcess } from './server-process.js';

const data = { customers: 1_000, orders: 10_000, products: 100 };

function fakeServer() {
  const stop = jest.fn(async () => undefined);
  return { server: { url: 'http://127.0.0.1:1', stop } as unknown as ServerProcess, stop };
}

describe('scaling sides', () => {
  it('stops the server it started when the first login fails, and passes the error on', async () => {
    const { server, stop } = fakeServer();
    const refused = async (): Promise<TokenMode> => {
      throw new Error('login as demo answered 429');
    };
    await expect(side('sqlite:x', 'fastify', 'tessera/fastify@1,000', data, async () => server, refused)).rejects.toThrow(/429/);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('keeps the server running, logged in, when the login succeeds', async () => {
    const { server, stop } = fakeServer();
    const tokens = async (): Promise<TokenMode> => ({ kind: 'token', demoAuth: 'CALiveAPICreator d:1', samAuth: 'CALiveAPICreator s:1' });
    const started = await side('sqlite:x', 'fastify', 'tessera/fastify@1,000', data, async () => server, tokens);
    expect(started).toEqual({ server, ctx: { ...data, demoAuth: 'CALiveAPICreator d:1', samAuth: 'CALiveAPICreator s:1' } });
    expect(stop).not.toHaveBeenCalled();
  });

  it('stops the sides already started when a later one fails to start', async () => {
    const stopped: string[] = [];
    const starting = startInTurn<string>(
      [
        async () => 'small',
        async () => {
          throw new Error('large side failed');
        },
        async () => 'never',
      ],
      async (s) => {
        stopped.push(s);
      },
    );
    await expect(starting).rejects.toThrow('large side failed');
    expect(stopped).toEqual(['small']);
    await expect(startInTurn([async () => 1, async () => 2], async () => undefined)).resolves.toEqual([1, 2]);
  });
});
