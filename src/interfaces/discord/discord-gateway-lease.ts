/**
 * @module One Discord gateway connection per bot across replicas: the replica holding the journal lease
 * `discord-gateway:<bot>` connects; the others retry to take it every renewal period. A holder that cannot
 * renew (the lease expired and another took it, or the journal is unreachable) disconnects at once, so two
 * replicas never record (or answer) for one bot together; a killed holder's lease expires after its TTL and
 * another replica connects and back-fills the gap (see the recorder's `gapSince`).
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../logging/logger.js';
import type { GatewayLeases } from './discord-state-store.js';
import type { DiscordConnection } from './start-discord.js';

export interface DiscordGatewayLeaseOptions {
  readonly leases: GatewayLeases;
  readonly bot: string;
  /** Connects the bot (startDiscord); called each time this replica takes the lease. */
  readonly connect: () => Promise<DiscordConnection>;
  readonly logger: Logger;
  /** How long the lease lasts unless renewed. Default 15 000 ms: a killed holder is replaced within ~20 s. */
  readonly ttlMs?: number;
  /** How often the lease is renewed, or tried for. Default 5 000 ms (a third of the TTL: two renewals may fail). */
  readonly renewMs?: number;
  /** This replica's name in the lease. Default host, process id and a random part (unique per start). */
  readonly holder?: string;
}

/** Holds (or waits for) the gateway lease of one bot and keeps the connection in step with it. */
export class DiscordGatewayLease {
  readonly #options: DiscordGatewayLeaseOptions;
  readonly #name: string;
  readonly #holder: string;
  #connection: DiscordConnection | undefined;
  #connecting: Promise<void> | undefined;
  #held = false;
  #stopped = false;
  /** While start() runs: a failed connect is then start()'s to report (thrown), not a log line. */
  #starting = false;
  #startFailure: unknown;
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> = Promise.resolve();

  constructor(options: DiscordGatewayLeaseOptions) {
    this.#options = options;
    this.#name = `discord-gateway:${options.bot}`;
    this.#holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** The live connection, while this replica holds the lease and is connected. */
  get connection(): DiscordConnection | undefined {
    return this.#connection;
  }

  /**
   * Tries once and, if the lease is free, connects: a refused login rejects here (a start-up error, as with one
   * replica). Then renews, or tries again, every renewal period until close.
   */
  async start(): Promise<void> {
    this.#starting = true;
    try {
      await this.#renew();
      await this.#connecting;
    } finally {
      this.#starting = false;
    }
    if (this.#startFailure !== undefined) throw this.#startFailure;
    this.#timer = setInterval(() => {
      this.#tick = this.#tick.then(() => this.#renew());
    }, this.#options.renewMs ?? 5000);
  }

  /** Disconnects (after the replies in flight), notes until when it was connected, and gives the lease up. */
  async close(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#tick;
    await this.#connecting;
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection !== undefined) {
      await connection.state.markConnected(Date.now()).catch(() => undefined);
      await connection.close();
    }
    await this.#options.leases.release(this.#name, this.#holder).catch(() => undefined);
  }

  /** What a killed process leaves (tests): no more renewals, the socket gone, the lease left to expire. */
  async abandon(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.client.destroy();
  }

  async #renew(): Promise<void> {
    const { leases, logger, ttlMs = 15_000 } = this.#options;
    let held = false;
    try {
      held = await leases.acquire(this.#name, this.#holder, ttlMs, Date.now());
    } catch (error) {
      logger.warn({ err: error }, 'discord: could not renew the gateway lease');
    }
    if (this.#stopped) return;
    this.#held = held;
    if (!held) return this.#disconnect();
    if (this.#connection !== undefined) {
      await this.#connection.state.markConnected(Date.now()).catch((error: unknown) => {
        logger.warn({ err: error }, 'discord: could not note the gateway connected');
      });
    } else if (this.#connecting === undefined) {
      logger.info({ holder: this.#holder }, 'discord: took the gateway lease; connecting');
      // Not awaited by the renewals: they go on while discord.js logs in, so the lease does not lapse meanwhile.
      this.#connecting = this.#connect().finally(() => {
        this.#connecting = undefined;
      });
    }
  }

  /** Never rejects: a failure is start()'s to throw, or logged (the next renewal tries again). */
  async #connect(): Promise<void> {
    let connection: DiscordConnection;
    try {
      connection = await this.#options.connect();
    } catch (error) {
      // Let another replica (or the next renewal here) try.
      await this.#options.leases.release(this.#name, this.#holder).catch(() => undefined);
      if (this.#starting) this.#startFailure = error;
      else this.#options.logger.error({ err: error }, 'discord: could not connect; trying again');
      return;
    }
    if (this.#stopped || !this.#held) {
      await connection.close({ atOnce: true });
      return;
    }
    this.#connection = connection;
    await connection.state.markConnected(Date.now()).catch(() => undefined);
  }

  async #disconnect(): Promise<void> {
    const connection = this.#connection;
    if (connection === undefined) return;
    this.#connection = undefined;
    this.#options.logger.warn('discord: the gateway lease is lost; disconnecting at once');
    await connection.close({ atOnce: true });
  }
}
