/**
 * @module Replicas of one bot for failover tests and the takeover benchmark: one gateway lease and one
 * startDiscord per journal connection, all against one fake Discord whose #general history a test adds to.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DiscordConfig } from '../../../config/config-types.js';
import type { Journal } from '../../../journal/journal.js';
import { createLogger } from '../../../logging/logger.js';
import { DiscordGatewayLease, type DiscordGatewayLeaseOptions } from '../discord-gateway-lease.js';
import type { DiscordMemory } from '../discord-memory.js';
import { startDiscord } from '../start-discord.js';
import { GENERAL, type MessageOptions, messagePayload, testDiscordConfig } from './discord-harness.js';
import type { FakeDiscord } from './fake-discord.js';

export interface GatewayReplicasOptions {
  readonly fake: FakeDiscord;
  readonly journals: readonly Journal[];
  readonly memory: DiscordMemory;
  /** Lease timings (default production's). */
  readonly ttlMs?: number;
  readonly renewMs?: number;
  /** Replaces replica i's leases (e.g. ones that fail). */
  readonly leasesOf?: (i: number, journal: Journal) => DiscordGatewayLeaseOptions['leases'];
  /** Called as replica i begins to connect. */
  readonly onConnect?: (i: number) => void;
  /** Changes to the `discord:` section (default: #general records). */
  readonly discord?: Partial<DiscordConfig>;
}

const logger = createLogger({ level: 'silent' });

/** The replicas, not started; #general records. */
export function createGatewayReplicas(options: GatewayReplicasOptions): DiscordGatewayLease[] {
  const { fake, memory } = options;
  return options.journals.map(
    (journal, i) =>
      new DiscordGatewayLease({
        leases: options.leasesOf?.(i, journal) ?? journal.leases,
        bot: memory.bot.name,
        holder: `replica-${i}`,
        ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
        ...(options.renewMs === undefined ? {} : { renewMs: options.renewMs }),
        logger,
        connect: (leaseHeld) => {
          options.onConnect?.(i);
          return startDiscord({
            leaseHeld,
            config: testDiscordConfig({ channels: [GENERAL], ...options.discord }),
            memory,
            store: journal.discord,
            logger,
            restApi: fake.restBase,
            backfillPageDelayMs: 5,
          });
        },
      }),
  );
}

/** A channel's history on the fake Discord, which a test adds to and deletes from (as its authors would). */
export interface ServedHistory {
  /** Adds a message (sent on the gateway too when `live`); resolves with its id. */
  post(content: string, live: boolean, options?: Partial<MessageOptions>): Promise<string>;
  /** Takes a message out of the history, as a delete on Discord does (no gateway event: nobody is connected). */
  remove(id: string): void;
}

/**
 * Makes the fake answer `channelId`'s history as Discord does: newest first, `limit` at most, older than
 * `before` when given.
 */
export function serveChannelHistory(fake: FakeDiscord, channelId: string): ServedHistory {
  const history: Record<string, unknown>[] = [];
  fake.respond((call) => {
    if (call.method !== 'GET' || call.path !== `/channels/${channelId}/messages`) return undefined;
    const query = new URLSearchParams(call.query);
    const before = query.get('before');
    const older = [...history]
      .reverse()
      .filter((m) => before === null || BigInt(m.id as string) < BigInt(before));
    return { body: older.slice(0, Number(query.get('limit') ?? 50)) };
  });
  return {
    async post(content, live, options = {}) {
      const message = messagePayload({ channelId, ...options, content });
      history.push(message);
      if (live) await fake.dispatch('MESSAGE_CREATE', message);
      return message.id as string;
    },
    remove(id) {
      const at = history.findIndex((m) => m.id === id);
      if (at >= 0) history.splice(at, 1);
    },
  };
}

/** serveChannelHistory for #general; returns its `post`. */
export function serveGeneralHistory(fake: FakeDiscord): ServedHistory['post'] {
  return serveChannelHistory(fake, GENERAL).post;
}

/** Polls until the condition holds; the test's own timeout bounds the wait. */
export async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await sleep(20);
}
