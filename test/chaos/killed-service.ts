import { launchService, startService, type ServiceProcess } from '../support/service-process.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** No process may live longer: a hung boot or service shows up as a failed run, not a stuck one. */
const PROCESS_LIMIT_MS = 240_000;
/** Every third restart is itself killed during its boot, at a random moment within this range. */
const BOOT_KILL_MS: [number, number] = [150, 1200];

/**
 * The service process the load's clients reach, killed with SIGKILL and started again. While it
 * is down its clients wait at `ready()`. The processes take turns with the two HTTP adapters, so
 * both answer under the kills; every process is stopped by its pid.
 */
export class KilledService {
  kills = 0;
  /** Kills that came before the process was listening. */
  bootKills = 0;
  /** How long each restart took to listen, in ms. */
  readonly restarts: number[] = [];
  private current: ServiceProcess | undefined;
  private generation = 0;
  private gate = Promise.resolve();
  private openGate = (): void => undefined;

  /** `maxKills`: a restart is killed during its boot only while the kills are fewer. */
  constructor(
    private readonly env: Record<string, string>,
    private readonly maxKills: number,
  ) {}

  /** The current process's port (read at every request: a restart listens on another). */
  readonly port = (): number => this.current!.port;
  readonly ready = (): Promise<void> => this.gate;

  async start(): Promise<void> {
    this.current = await startService(this.nextEnv(), PROCESS_LIMIT_MS);
  }

  /** Kills the process (the caller picks the moment) and starts another; resolves once it listens. */
  async killAndRestart(): Promise<void> {
    this.gate = new Promise((open) => (this.openGate = open));
    await this.kill(this.current!);
    const restartedAt = Date.now();
    if (this.kills % 3 === 0 && this.kills < this.maxKills) {
      const booting = await launchService(this.nextEnv(), PROCESS_LIMIT_MS);
      await sleep(BOOT_KILL_MS[0] + Math.random() * (BOOT_KILL_MS[1] - BOOT_KILL_MS[0]));
      if (!booting.stdout().includes('Tessera is listening')) this.bootKills += 1;
      await this.kill(booting);
    }
    this.current = await startService(this.nextEnv(), PROCESS_LIMIT_MS);
    this.restarts.push(Date.now() - restartedAt);
    this.openGate();
  }

  /** Stops the last process with SIGTERM, as an operator would. */
  async stop(): Promise<void> {
    this.current?.child.kill('SIGTERM');
    await this.current?.exited;
  }

  /** After a failure: kills the process, if any, and lets waiting clients go (they then see the load stopped). */
  async abort(): Promise<void> {
    this.current?.kill();
    await this.current?.exited;
    this.openGate();
  }

  private async kill(service: ServiceProcess): Promise<void> {
    service.child.kill('SIGKILL');
    await service.exited;
    this.kills += 1;
  }

  private nextEnv(): Record<string, string> {
    const adapter = this.generation++ % 2 === 0 ? 'express' : 'fastify';
    return { ...this.env, HTTP_ADAPTER: adapter };
  }
}
