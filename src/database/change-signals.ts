import type pg from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { pgPackage } from './connection/driver-packages.js';

/** How long a lost listening connection waits before connecting again. */
const RECONNECT_MS = 1000;

/** Someone to call when a channel is signalled; also called after the listening connection was lost (a signal may have been missed). */
type Handler = () => void;

/**
 * Signals between the instances sharing one database: an instance that changes something
 * others keep in memory (the token cache) announces it, and every instance (itself included)
 * hears it at once. PostgreSQL only, through LISTEN/NOTIFY on one connection of its own (not
 * one of the pool's); on the other databases announcing does nothing and nothing is heard, and
 * what is kept in memory must expire by itself (TOKEN_CACHE_SECONDS).
 *
 * Channels are fixed names chosen by the code (never input): `[a-z_]+`.
 */
export class ChangeSignals {
  private readonly handlers = new Map<string, Set<Handler>>();
  private client?: pg.Client;
  private connecting?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger?: Logger,
  ) {}

  /** Whether signals travel between instances here (PostgreSQL). */
  get supported(): boolean {
    return dialectOf(this.dataSource) === 'postgres';
  }

  /** Tells every listening instance that `channel` changed (fire and forget: a lost signal leaves the cache time as the bound). */
  announce(channel: string): void {
    if (!this.supported || !this.dataSource.isInitialized) return;
    this.dataSource.query('SELECT pg_notify($1, $2)', [channel, '']).catch((error: unknown) => {
      this.logger?.warn({ channel, err: (error as Error).message }, 'could not signal the other instances');
    });
  }

  /** Calls `handler` whenever any instance announces `channel`; resolves once listening. */
  async listen(channel: string, handler: Handler): Promise<void> {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (!this.supported) return;
    const known = this.handlers.get(channel);
    if (known) {
      known.add(handler);
      return;
    }
    this.handlers.set(channel, new Set([handler]));
    try {
      if (this.client) await this.client.query(`LISTEN ${channel}`);
      else await this.connect();
    } catch (error) {
      // Not a reason to stop: until it listens, cached rows still expire by themselves.
      this.logger?.warn({ err: (error as Error).message }, 'could not connect to hear other instances; trying again');
      this.retryLater();
    }
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.stopped = true;
    this.handlers.clear();
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.openClient().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async openClient(): Promise<void> {
    // The pool's own settings (host, credentials, timeouts, TLS), for a connection outside it.
    const options = (this.dataSource.driver as unknown as { master: { options: pg.ClientConfig } }).master.options;
    const client = new (pgPackage().Client)(options);
    const onLost = (error?: Error) => {
      // Only an established listening connection; one that fails while connecting is the connecting caller's to report.
      if (this.client !== client) return;
      this.client = undefined;
      if (this.stopped) return;
      this.logger?.warn({ err: error?.message }, 'lost the connection that hears other instances; connecting again');
      this.retryLater();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler();
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private retryLater(): void {
    setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
  }

  private async reconnect(): Promise<void> {
    if (this.stopped || this.client) return;
    try {
      await this.connect();
      // Whatever was signalled while no connection listened is unknown: every handler runs once.
      for (const handlers of this.handlers.values()) for (const handler of handlers) handler();
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'could not connect to hear other instances; trying again');
      this.retryLater();
    }
  }
}
