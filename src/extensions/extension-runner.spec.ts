import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { loadConfig } from '../config/app-config.js';
import { ExtensionRunner } from './extension-runner.js';
import { Refusal } from './refusal.js';

function runner(lines: unknown[] = []): ExtensionRunner {
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return new ExtensionRunner(loadConfig({ EXTENSION_TIMEOUT_MS: '50' }), logger);
}

async function failure(work: Promise<unknown>): Promise<ApiError> {
  try {
    await work;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('it did not fail');
}

describe('ExtensionRunner', () => {
  it('answers what the extension returns', async () => {
    await expect(runner().run({ name: 'function f' }, () => Promise.resolve(42))).resolves.toBe(42);
  });

  it('turns a Refusal into the envelope with its status and a code ending in 8', async () => {
    const error = await failure(
      runner().run({ name: 'request event e' }, () => {
        throw new Refusal(422, 'An order may not exceed 10,000.');
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.toBody()).toEqual({ statusCode: 422, errorCode: 4228, errorMessage: 'An order may not exceed 10,000.' });
  });

  it('answers 503 / 5033 past the time limit and aborts the signal', async () => {
    let signal: AbortSignal | undefined;
    const error = await failure(
      runner().run({ name: 'function slow', timeoutMs: 20 }, (s) => {
        signal = s();
        return new Promise(() => undefined);
      }),
    );
    expect(error.errorCode).toBe(ErrorCode.EXTENSION_TIMEOUT);
    expect(error.message).toBe('The function slow did not finish within 20 ms.');
    expect(signal?.aborted).toBe(true);
  });

  it('makes the signal only when the extension asks for it, aborted when asked after the time limit', async () => {
    const made: AbortController[] = [];
    const Real = globalThis.AbortController;
    globalThis.AbortController = class extends Real {
      constructor() {
        super();
        made.push(this);
      }
    };
    try {
      await runner().run({ name: 'function quick' }, () => 1);
      expect(made).toHaveLength(0);

      let late: (() => AbortSignal) | undefined;
      const error = await failure(
        runner().run({ name: 'function slow', timeoutMs: 20 }, (s) => {
          late = s;
          return new Promise(() => undefined);
        }),
      );
      expect(error.errorCode).toBe(ErrorCode.EXTENSION_TIMEOUT);
      expect(made).toHaveLength(0);
      expect(late?.().aborted).toBe(true);
      expect(late?.()).toBe(late?.());
      expect(made).toHaveLength(1);
    } finally {
      globalThis.AbortController = Real;
    }
  });

  it("never answers a bug's message: 500 / 5002 naming the extension, the stack in the log", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const error = await failure(
      runner(lines).run({ name: 'function leaky', requestId: 'r1' }, () => {
        throw new Error('password=hunter2');
      }),
    );
    expect(error.errorCode).toBe(ErrorCode.EXTENSION_FAILED);
    expect(error.message).not.toContain('hunter2');
    expect(lines).toEqual([expect.objectContaining({ requestId: 'r1', extension: 'function leaky', msg: 'extension failed' })]);
  });

  it("lets API errors and Tessera's own failures through as they are", async () => {
    const r = runner();
    const denied = new ApiError(ErrorCode.FORBIDDEN, 'no');
    expect(await failure(r.run({ name: 'f' }, () => Promise.reject(denied)))).toBe(denied);
    const outage = new Error('connect ECONNREFUSED');
    expect(await failure(r.run({ name: 'f' }, () => r.passThrough(Promise.reject(outage))))).toBe(outage);
  });

  it('treats a refusal with a status it does not take as a bug', async () => {
    const error = await failure(runner().run({ name: 'f' }, () => Promise.reject(new Refusal(500 as 400, 'x'))));
    expect(error.errorCode).toBe(ErrorCode.EXTENSION_FAILED);
  });
});
