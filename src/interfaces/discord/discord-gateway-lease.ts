/**
 * @module One Discord gateway connection per bot across replicas: the replica holding the journal lease
 * `discord-gateway:<bot>` connects; the others retry to take it every renewal period. A holder that cannot
 * renew (the lease expired and another took it, or the journal is unreachable) disconnects at once, so two
 * replicas never record (or answer) for one bot together; a killed holder's lease expires after its TTL and
 * another replica connects and back-fills the gap (see the recorder's `gapSince`). "Cannot renew" includes a
 * renewal that never answers (a partitioned journal): a local watchdog disconnects once the last successful
 * renewal, timed before it was sent, is older than the TTL minus a margin, whatever the journal does. The
 * connection is also given that deadline to check before each event: a process whose event loop froze past it
 * handles what its socket buffered meanwhile before any timer can fire.
 */

import { performance } from 'node:perf_hooks';
import type { Logger } from '../../logging/logger.js';
import { withDeadline } from '../../runtime/abort-deadline.js';
import { createHolderId } from '../../runtime/holder-id.js';
import type { GatewayLeases } from './discord-state-store.js';
import type { DiscordConnection } from './start-discord.js';

export interface DiscordGatewayLeaseOptions {
  readonly leases: GatewayLeases;
  readonly bot: string;
  /**
   * Connects the bot (startDiscord); called each time this replica takes the lease, with `leaseHeld`: whether
   * the lease is still ours by the local deadline, read afresh at each call (the watchdog's test, untimed).
   */
  readonly connect: (leaseHeld: () => boolean) => Promise<DiscordConnection>;
  readonly logger: Logger;
  /** How long the lease lasts unless renewed. Default 15 000 ms: a killed holder is replaced within ~20 s. */
  readonly ttlMs?: number;
  /** How often the lease is renewed, or tried for. Default 5 000 ms (a third of the TTL: two renewals may fail). */
  readonly renewMs?: number;
  /** This replica's name in the lease. Default host, process id and a random part (unique per start). */
  readonly holder?: string;
  /**
   * How long a stop keeps renewing while its connection drains (the companion's replies in flight); past it the
   * lease is left to lapse, so a stop that hangs never keeps another replica from taking over. Default 75 000 ms
   * (the companion's default timeout and a TTL).
   */
  readonly drainMs?: number;
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
  /** Closed or abandoned: a renewal still in flight changes nothing any more. */
  #ended = false;
  /**
   * Bumped at each disconnect: a connection's `leaseHeld` is bound to the tenure it was made in, so one still
   * closing (waiting for a reply) never reads the lease a later connection re-took as its own (review s26, 5).
   */
  #tenure = 0;
  /** The connection close() is closing: closed at once if the lease is lost meanwhile. */
  #closing: DiscordConnection | undefined;
  /** While start() runs: a failed connect is then start()'s to report (thrown), not a log line. */
  #starting = false;
  #startFailure: unknown;
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> = Promise.resolve();
  /** A renewal is in flight: the timer skips its turn rather than queue behind a slow one. */
  #ticking = false;
  /** Monotonic time at which the last successful acquire was sent: the lease is surely ours until + TTL. */
  #lastRenewedAt = Number.NEGATIVE_INFINITY;
  #watchdog: NodeJS.Timeout | undefined;

  constructor(options: DiscordGatewayLeaseOptions) {
    this.#options = options;
    this.#name = `discord-gateway:${options.bot}`;
    this.#holder = options.holder ?? createHolderId();
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
      if (this.#ticking) return;
      this.#ticking = true;
      this.#tick = this.#renew().finally(() => {
        this.#ticking = false;
      });
    }, this.#renewMs);
  }

  get #renewMs(): number {
    return this.#options.renewMs ?? 5000;
  }

  get #ttlMs(): number {
    return this.#options.ttlMs ?? 15_000;
  }

  /**
   * Disconnects (after the replies in flight), notes until when it was connected, and gives the lease up. The
   * renewals go on until the connection is closed: the gateway stays open while replies finish, and the events
   * it delivers meanwhile (deletes too) are recorded only while `leaseHeld()`, which must not lapse while the
   * lease is still ours and no other replica can connect; for at most `drainMs`, then the lease lapses (the
   * watchdog closes the connection at once at the local deadline).
   */
  async close(): Promise<void> {
    this.#stopped = true;
    await this.#connecting;
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection !== undefined) {
      this.#closing = connection;
      await this.#bounded(connection.state.markConnected(Date.now()), this.#renewMs).catch(() => undefined);
      const drainMs = this.#options.drainMs ?? 75_000;
      const drainLimit = setTimeout(() => {
        this.#options.logger.warn(
          { drainMs },
          'discord: the stop still drains; no longer renewing the gateway lease, so another replica can take over',
        );
        clearInterval(this.#timer);
      }, drainMs);
      try {
        await connection.close();
      } finally {
        clearTimeout(drainLimit);
      }
      this.#closing = undefined;
    }
    this.#ended = true;
    clearInterval(this.#timer);
    clearTimeout(this.#watchdog);
    // Bounded: a renewal times out by itself, but a stop must not hang on anything the journal does.
    await this.#bounded(this.#tick, this.#renewMs).catch(() => undefined);
    this.#held = false;
    await this.#options.leases.release(this.#name, this.#holder).catch(() => undefined);
  }

  /** What a killed process leaves (tests): no more renewals, the socket gone, the lease left to expire. */
  async abandon(): Promise<void> {
    this.#stopped = true;
    this.#ended = true;
    clearInterval(this.#timer);
    clearTimeout(this.#watchdog);
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.client.destroy();
  }

  async #renew(): Promise<void> {
    const { leases, logger } = this.#options;
    let held = false;
    // Taken before the request leaves: the journal's expiry is at least this plus the TTL.
    const sentAt = performance.now();
    try {
      held = await this.#bounded(
        leases.acquire(this.#name, this.#holder, this.#ttlMs, Date.now()),
        this.#renewMs,
      );
    } catch (error) {
      logger.warn({ err: error }, 'discord: could not renew the gateway lease');
    }
    if (this.#ended) return;
    this.#held = held;
    if (!held) return this.#disconnect();
    this.#armWatchdog(sentAt);
    // Closing (see close()): renewed only, neither re-marked nor connected again.
    if (this.#stopped) return;
    const connection = this.#connection;
    if (connection !== undefined) {
      await this.#bounded(connection.state.markConnected(Date.now()), this.#renewMs).catch(
        (error: unknown) => {
          logger.warn({ err: error }, 'discord: could not note the gateway connected');
        },
      );
      // Opt-outs, denies and forgets another replica wrote (a legacy move, a late ex-holder) apply from here.
      await this.#bounded(connection.state.refresh(), this.#renewMs).catch((error: unknown) => {
        logger.warn({ err: error }, 'discord: could not re-read the Discord state');
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
    const tenure = this.#tenure;
    try {
      connection = await this.#options.connect(() => this.#tenure === tenure && this.#heldLocally());
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

  /** `work`, or a TimeoutError once `ms` passed (the work is left to finish on its own). */
  #bounded<T>(work: Promise<T>, ms: number): Promise<T> {
    return withDeadline(ms, { onTimeout: (error) => error }, () => work);
  }

  /**
   * The local deadline: the last successful renewal's send time plus the TTL minus a margin (a renewal period,
   * at most half the TTL), which leaves time for the close before another replica can take the lease.
   */
  get #deadline(): number {
    return this.#lastRenewedAt + this.#ttlMs - Math.min(this.#renewMs, this.#ttlMs / 2);
  }

  /** Whether the lease is ours by the local deadline, whatever the timers have had the chance to run. */
  #heldLocally(): boolean {
    return this.#held && performance.now() < this.#deadline;
  }

  /** Disconnects at the local deadline unless a later renewal succeeds first. */
  #armWatchdog(sentAt: number): void {
    this.#lastRenewedAt = sentAt;
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(
      () => {
        // A timer may fire a little before performance.now() reaches the deadline: then it waits again, or with
        // no renewal left to re-arm it (a stop past its drain budget) it would never fire.
        if (performance.now() < this.#deadline) return this.#armWatchdog(this.#lastRenewedAt);
        this.#held = false;
        void this.#disconnect();
      },
      Math.max(0, this.#deadline - performance.now()),
    );
  }

  async #disconnect(): Promise<void> {
    const connection = this.#connection ?? this.#closing;
    if (connection === undefined) return;
    this.#tenure += 1;
    this.#connection = undefined;
    this.#closing = undefined;
    this.#options.logger.warn('discord: the gateway lease is lost; disconnecting at once');
    await connection.close({ atOnce: true });
  }
}
