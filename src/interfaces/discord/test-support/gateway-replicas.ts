/**
 * @module Replicas of one bot for failover tests and the takeover benchmark: one gateway lease and one
 * startDiscord per journal connection, all against one fake Discord whose #general history a test adds to.
 */
import type { Journal } from '../../../journal/journal.js';
import { createLogger } from '../../../logging/logger.js';
import { DiscordGatewayLease, type DiscordGatewayLeaseOptions } from '../discord-gateway-lease.js';
import type { DiscordMemory } from '../discord-memory.js';
import { startDiscord } from '../start-discord.js';
import { GENERAL, messagePayload, testDiscordConfig } from './discord-harness.js';
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
        connect: () => {
          options.onConnect?.(i);
          return startDiscord({
            config: testDiscordConfig({ channels: [GENERAL] }),
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

/**
 * Makes the fake's #general answer its history (newest first, as Discord does); returns `post`, which adds a
 * message there and, when `live`, also sends it on the gateway. Resolves with the message id.
 */
export function serveGeneralHistory(fake: FakeDiscord): (content: string, live: boolean) => Promise<string> {
  const history: Record<string, unknown>[] = [];
  fake.respond((call) =>
    call.method === 'GET' && call.path === `/channels/${GENERAL}/messages`
      ? { body: [...history].reverse() }
      : undefined,
  );
  return async (content, live) => {
    const message = messagePayload({ content });
    history.push(message);
    if (live) await fake.dispatch('MESSAGE_CREATE', message);
    return message.id as string;
  };
}
