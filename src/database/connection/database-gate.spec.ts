import { DatabaseGate } from './database-gate.js';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('DatabaseGate', () => {
  it('runs one writer at a time and keeps readers out while it writes', async () => {
    const gate = new DatabaseGate(true);
    const log: string[] = [];
    let release!: () => void;
    const first = gate.write(async () => {
      log.push('w1 start');
      await new Promise<void>((r) => (release = r));
      log.push('w1 end');
    });
    const second = gate.write(async () => void log.push('w2'));
    const reader = gate.read(async () => void log.push('r'));
    await tick();
    expect(log).toEqual(['w1 start']);
    release();
    await Promise.all([first, second, reader]);
    expect(log).toEqual(['w1 start', 'w1 end', 'w2', 'r']);
  });

  it('lets readers share, and a writer waits for them', async () => {
    const gate = new DatabaseGate(true);
    const log: string[] = [];
    let release!: () => void;
    const r1 = gate.read(async () => {
      log.push('r1 start');
      await new Promise<void>((r) => (release = r));
      log.push('r1 end');
    });
    const r2 = gate.read(async () => void log.push('r2'));
    const w = gate.write(async () => void log.push('w'));
    await tick();
    expect(log).toEqual(['r1 start', 'r2']);
    release();
    await Promise.all([r1, r2, w]);
    expect(log).toEqual(['r1 start', 'r2', 'r1 end', 'w']);
  });

  it('releases the gate when the work throws', async () => {
    const gate = new DatabaseGate(true);
    await expect(
      gate.write(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(gate.write(async () => 'ok')).resolves.toBe('ok');
  });

  it('passes everything through when disabled', async () => {
    const gate = new DatabaseGate(false);
    const order: string[] = [];
    let release!: () => void;
    const w = gate.write(async () => {
      await new Promise<void>((r) => (release = r));
      order.push('w');
    });
    await gate.read(async () => void order.push('r'));
    release();
    await w;
    expect(order).toEqual(['r', 'w']);
  });
});
