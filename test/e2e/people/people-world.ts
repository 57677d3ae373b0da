/**
 * @module The people scenario's world: one service with Discord through the fake gateway, the keys of the
 * Hermes plugin and the owner, a bot recalling `dm-private`, a second bot (for another bot's code) and, on
 * Postgres, an optional second replica on the same journal and store. HTTP calls carry a key each.
 */
import assert from 'node:assert/strict';
import type { ApiKeyConfig, MemoryPoolConfig } from '../../../src/config/config-types.js';
import { testBot } from '../../../src/config/test-support/test-bot.js';
import { hermesKey, ownerKey } from '../../../src/http/test-support/test-api-keys.js';
import {
  type DiscordHarness,
  DM_CHANNEL,
  GENERAL,
  HELEN,
  startDiscordHarness,
} from '../../../src/interfaces/discord/test-support/discord-harness.js';
import { ask, command } from '../../../src/interfaces/discord/test-support/discord-interactions.js';
import { startTestService, type TestService } from '../../../src/service/test-support/start-test-service.js';

/** Helen on Telegram, through the Hermes plugin, and her Telegram DM with the companion. */
export const TELEGRAM = 'telegram:5678';
export const TELEGRAM_DM = 'tg-dm-5678';

export interface Answer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  readonly json: any;
}

/** One replica as a client sees it: its URL and its chunk writer's flush. */
export interface Replica {
  readonly url: string;
  flush(): Promise<void>;
}

export interface PeopleWorld {
  readonly h: DiscordHarness;
  readonly a: Replica;
  /** A second replica on the same journal and store (Postgres only), else undefined. */
  readonly b: Replica | undefined;
  readonly storeUrl: string;
  close(): Promise<void>;
}

/** One HTTP call to a replica with a key. */
export async function call(
  replica: Replica,
  method: string,
  path: string,
  body: unknown,
  key: ApiKeyConfig,
): Promise<Answer> {
  const response = await fetch(`${replica.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/** A call to the first replica that must answer 200 (else fails showing the body); resolves with its JSON. */
export async function callOk(
  world: PeopleWorld,
  method: string,
  path: string,
  body: unknown,
  key: ApiKeyConfig,
): Promise<Answer['json']> {
  const answer = await call(world.a, method, path, body, key);
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  return answer.json;
}

const toReplica = (service: TestService): Replica => ({
  url: service.url,
  flush: async () => {
    await service.writer.runOnce({ flush: true });
  },
});

/**
 * Starts the world on the journal `journal` (absent: SQLite in the service's folder); `replicas: 2` adds a
 * second service on the same journal and the first one's store, as two replicas behind one load balancer.
 */
export async function startPeopleWorld(
  journal: Pick<MemoryPoolConfig, 'journal'> | Record<string, never>,
  replicas: 1 | 2,
): Promise<PeopleWorld> {
  const h = await startDiscordHarness(
    { channels: [GENERAL], dms: true },
    {
      bot: { retrieve: { limit: 20, scoreThreshold: -1, scope: 'dm-private' } },
      otherBots: [testBot('other')],
      config: { apiKeys: [hermesKey, ownerKey], ...journal },
    },
  );
  h.answerReplyEdits();
  let second: TestService | undefined;
  try {
    if (replicas === 2) {
      second = await startTestService({
        bots: Object.values(h.service.config.bots),
        config: {
          apiKeys: [hermesKey, ownerKey],
          ...journal,
          store: { kind: 'qdrant', url: h.service.storeUrl! },
        },
      });
    }
  } catch (error) {
    await h.close();
    throw error;
  }
  return {
    h,
    a: toReplica(h.service),
    b: second === undefined ? undefined : toReplica(second),
    storeUrl: h.service.storeUrl!,
    close: async () => {
      await second?.close();
      await h.close();
    },
  };
}

/** Helen's Telegram messages as the Hermes plugin saves them (its key, her platform-qualified id). */
export function saveFromTelegram(
  replica: Replica,
  messages: readonly { id: string; text: string; self?: boolean; dm?: boolean }[],
): Promise<Answer> {
  return call(
    replica,
    'POST',
    '/save',
    {
      bot: 'mythos',
      messages: messages.map((m) => ({
        message_id: m.id,
        text: m.text,
        channel_id: m.dm === false ? 'tg-group-1' : TELEGRAM_DM,
        is_dm: m.dm !== false,
        ...(m.self
          ? { speaker_kind: 'self' }
          : { speaker_kind: 'user', user_id: TELEGRAM, speaker_name: 'Helen T' }),
      })),
    },
    hermesKey,
  );
}

/** A recall asked in Helen's Telegram DM, as the Hermes plugin asks it; the texts recalled. */
export async function recallInTelegramDm(replica: Replica, query: string): Promise<string[]> {
  const answer = await call(
    replica,
    'POST',
    '/retrieve',
    { bot: 'mythos', query_text: query, is_dm: true, user_id: TELEGRAM, channel_id: TELEGRAM_DM },
    hermesKey,
  );
  if (answer.status !== 200) throw new Error(`retrieve: ${answer.status} ${JSON.stringify(answer.json)}`);
  return (answer.json.hits as { text: string }[]).map((hit) => hit.text);
}

/** What `/memory recall` answers Helen in her DM with the bot on Discord. */
export async function recallInDiscordDm(world: PeopleWorld, query: string): Promise<string> {
  const { edit } = await ask(
    world.h,
    command({ user: HELEN, guildId: null, channelId: DM_CHANNEL }, 'recall', [
      { name: 'query', type: 3, value: query },
    ]),
  );
  return edit?.content ?? '';
}

/** Polls `check` until it returns a value (not undefined) or `deadlineMs` passes; the value and the time. */
export async function until<T>(
  check: () => Promise<T | undefined>,
  deadlineMs: number,
  what: string,
): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  for (;;) {
    const value = await check();
    const ms = performance.now() - start;
    if (value !== undefined) return { value, ms };
    if (ms > deadlineMs) throw new Error(`${what}: not within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
