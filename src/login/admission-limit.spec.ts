import { describe, expect, it } from '@jest/globals';
import { AdmissionLimit } from './admission-limit.js';

const full = () => new Error('full');

/** A task that runs until `finish()` is called. */
function pending(): { task: () => Promise<string>; finish: () => void; started: () => boolean } {
  let finish!: () => void;
  let started = false;
  const done = new Promise<string>((resolve) => (finish = () => resolve('done')));
  return { task: () => ((started = true), done), finish: () => finish(), started: () => started };
}

describe('AdmissionLimit', () => {
  it('runs up to `max` tasks at once and refuses the next without running it', async () => {
    const limit = new AdmissionLimit(2);
    const [a, b, c] = [pending(), pending(), pending()];
    const running = [limit.run(a.task, full), limit.run(b.task, full)];
    expect(limit.size).toBe(2);
    await expect(limit.run(c.task, full)).rejects.toThrow('full');
    expect(c.started()).toBe(false);
    a.finish();
    b.finish();
    await expect(Promise.all(running)).resolves.toEqual(['done', 'done']);
    expect(limit.size).toBe(0);
  });

  it('admits again as soon as a task ends, also one that failed', async () => {
    const limit = new AdmissionLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')), full)).rejects.toThrow('boom');
    expect(limit.size).toBe(0);
    const a = pending();
    const first = limit.run(a.task, full);
    await expect(limit.run(() => Promise.resolve('x'), full)).rejects.toThrow('full');
    a.finish();
    await first;
    await expect(limit.run(() => Promise.resolve('x'), full)).resolves.toBe('x');
  });

  it('never has more than `max` in progress in a burst, and turns the rest away', async () => {
    const limit = new AdmissionLimit(3);
    let inside = 0;
    let most = 0;
    const task = async () => {
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inside -= 1;
      return 'ok';
    };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => limit.run(task, full)));
    expect(most).toBe(3);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(17);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new AdmissionLimit(0)).toThrow();
    expect(() => new AdmissionLimit(1.5)).toThrow();
  });
});
