import { describe, expect, it } from '@jest/globals';
import { TurnLines } from './turn-lines.js';

const HOUR = 3_600_000;
const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('TurnLines', () => {
  it('puts a newcomer behind everyone in the lines of its account and of its address', () => {
    const lines = new TurnLines(HOUR);
    const first = lines.enter(['account:a', 'address:1']);
    const sameAccount = lines.enter(['account:a', 'address:2']);
    const sameAddress = lines.enter(['account:b', 'address:1']);
    const other = lines.enter(['account:c', 'address:3']);
    expect([first, sameAccount, sameAddress, other].map((t) => lines.atHead(t))).toEqual([true, false, false, true]);
    lines.leave(first);
    expect([sameAccount, sameAddress].map((t) => lines.atHead(t))).toEqual([true, true]);
  });

  it('wakes the next in line when the head leaves, and nobody behind it before', async () => {
    const lines = new TurnLines(HOUR);
    const head = lines.enter(['account:a']);
    const next = lines.enter(['account:a']);
    const waiting = lines.wait(next, false, Date.now() + HOUR, undefined);
    lines.wakeHeads(['account:a']);
    expect(await settled(waiting)).toBe(false);
    lines.leave(head);
    expect(await settled(waiting)).toBe(true);
    expect(lines.atHead(next)).toBe(true);
  });

  it('does not lose a slot freed while the head was trying: its next wait ends at once', async () => {
    const lines = new TurnLines(HOUR);
    const head = lines.enter(['account:a']);
    lines.wakeHeads(['account:a']);
    expect(await settled(lines.wait(head, true, Date.now() + HOUR, undefined))).toBe(true);
    // Heard once only: the wait after that lasts until the next wake.
    const next = lines.wait(head, true, Date.now() + HOUR, undefined);
    expect(await settled(next)).toBe(false);
    lines.wakeAll();
    await next;
  });

  it('lets only the head poll; the others wait until woken or until they give up', async () => {
    const lines = new TurnLines(20);
    const head = lines.enter(['account:a']);
    const next = lines.enter(['account:a']);
    const started = Date.now();
    await lines.wait(head, true, started + HOUR, undefined);
    expect(Date.now() - started).toBeLessThan(HOUR);
    const behind = lines.wait(next, false, Date.now() + 200, undefined);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await settled(behind)).toBe(false);
    await behind;
    expect(lines.atHead(next)).toBe(false);
  });

  it('ends a wait when the client goes', async () => {
    const lines = new TurnLines(HOUR);
    lines.enter(['account:a']);
    const next = lines.enter(['account:a']);
    const gone = new AbortController();
    const waiting = lines.wait(next, false, Date.now() + HOUR, gone.signal);
    gone.abort();
    expect(await settled(waiting)).toBe(true);
  });
});
