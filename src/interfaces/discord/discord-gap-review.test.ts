/**
 * @module Regressions (review s26) through the failover harness: a gap read that forgets nothing it should not
 * (a channel the bot cannot read the history of; a proxied original whose repost's text is rebuilt otherwise).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DiscordConfig } from '../../config/config-types.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import type { DiscordGatewayLease } from './discord-gateway-lease.js';
import { type CountingMemory, createCountingMemory } from './test-support/counting-memory.js';
import {
  BOT_USER,
  GENERAL,
  GUILD,
  guildPayload,
  messagePayload,
  SAM,
} from './test-support/discord-harness.js';
import { type FakeDiscord, startFakeDiscord } from './test-support/fake-discord.js';
import {
  createGatewayReplicas,
  type ServedHistory,
  serveChannelHistory,
  until,
} from './test-support/gateway-replicas.js';

interface Failover {
  readonly fake: FakeDiscord;
  readonly counting: CountingMemory;
  readonly general: ServedHistory;
  /** Kills the first replica, runs `meanwhile`, and resolves once the second has connected and decided its gap. */
  readonly takeOver: (meanwhile: () => Promise<void> | void) => Promise<void>;
}

/** Two replicas on one SQLite journal, the first holding the gateway; `body` runs, then everything is closed. */
async function withFailover(
  discord: Partial<DiscordConfig>,
  body: (failover: Failover) => Promise<void>,
  guild: Record<string, unknown> = guildPayload(),
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mp-gap-review-'));
  const fake = await startFakeDiscord({ botUser: BOT_USER, guilds: [guild] });
  const counting = createCountingMemory();
  const journals = [openSqliteJournal(dir), openSqliteJournal(dir)];
  const replicas = createGatewayReplicas({
    fake,
    journals,
    memory: counting.memory,
    ttlMs: 1500,
    renewMs: 250,
    discord,
  });
  const [first, second] = replicas as [DiscordGatewayLease, DiscordGatewayLease];
  try {
    await first.start();
    await second.start();
    const general = serveChannelHistory(fake, GENERAL);
    await body({
      fake,
      counting,
      general,
      takeOver: async (meanwhile) => {
        await first.abandon();
        await meanwhile();
        await until(() => second.connection !== undefined);
        await second.connection?.idle();
      },
    });
  } finally {
    for (const replica of replicas) await replica.close();
    for (const journal of journals) await journal.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test(
  "a proxied original that mentions a member by nickname is kept by the gap's proxy rule",
  { timeout: 30_000 },
  () =>
    withFailover({ channels: [GENERAL], otherBots: 'all' }, async ({ counting, general, takeOver }) => {
      // Live MESSAGE_CREATE: Discord adds a partial member to each mention (Sam's server nickname).
      const member = {
        nick: 'Sammy',
        roles: [],
        joined_at: new Date().toISOString(),
        deaf: false,
        mute: false,
      };
      const original = await general.post(`l: ask <@${SAM.id}> about the keys`, true, {
        mentions: [{ ...SAM, member } as typeof SAM],
      });
      await until(() => counting.saves.has(original));
      await takeOver(async () => {
        // PluralKit deletes the original and reposts its text through a webhook (REST: no member on mentions).
        general.remove(original);
        await general.post(`ask <@${SAM.id}> about the keys`, false, {
          webhookId: '800000000000000001',
          author: { id: '800000000000000001', username: 'Helen (PluralKit)', bot: true },
          mentions: [SAM],
        });
      });
      assert.deepEqual(counting.forgotten, []);
      assert.ok(counting.texts.has(original), "the person's own message is kept");
    }),
);

test(
  'rows of source discord that other clients saved in the channel are never compared with its history',
  {
    timeout: 30_000,
  },
  () =>
    withFailover({ channels: [GENERAL] }, async ({ counting, general, takeOver }) => {
      const spoken = await general.post('the keys are under the mat', true);
      await until(() => counting.saves.has(spoken));
      // An external client saving with defaultSource discord: its own ids, or a real id at its own time.
      const place = { channel_id: GENERAL, speaker_kind: 'self' as const, text: 'noted, the mat' };
      const real = (BigInt(Date.now() - 1_420_070_400_000) << 22n).toString();
      await counting.memory.save([
        { ...place, message_id: `${spoken}-2`, ts: Date.now() },
        { ...place, message_id: 'summary-7', ts: Date.now() },
        { ...place, message_id: real, ts: Date.now() - 5000 },
      ]);
      await takeOver(() => {});
      assert.deepEqual(counting.forgotten, []);
    }),
);

/** Read Message History, denied to everyone in #general by an overwrite (View Channel stays). */
function generalWithoutHistory(): Record<string, unknown> {
  const guild = guildPayload();
  const overwrite = { id: GUILD, type: 0, allow: '0', deny: String(1n << 16n) };
  const channels = guild.channels as Record<string, unknown>[];
  return {
    ...guild,
    channels: channels.map((c) => (c.id === GENERAL ? { ...c, permission_overwrites: [overwrite] } : c)),
  };
}

/** What Discord answers a history read of #general without Read Message History: 200 and no message. */
const answerEmptyHistory = (fake: FakeDiscord) =>
  fake.respond((call) =>
    call.method === 'GET' && call.path === `/channels/${GENERAL}/messages` ? { body: [] } : undefined,
  );

test(
  'a channel without Read Message History answers no message: nothing recorded there is forgotten',
  {
    timeout: 30_000,
  },
  () =>
    withFailover(
      { channels: [GENERAL] },
      async ({ fake, counting, general, takeOver }) => {
        // Live events still arrive (View Channel): both are recorded, and nothing is deleted on Discord.
        const said = await general.post('we meet at the station at nine', true);
        const reply = await general.post('noted, the station at nine', true);
        await until(() => counting.saves.has(said) && counting.saves.has(reply));
        await takeOver(() => answerEmptyHistory(fake));
        assert.deepEqual(counting.forgotten, []);
        assert.ok(counting.texts.has(said) && counting.texts.has(reply));
      },
      generalWithoutHistory(),
    ),
);

test(
  'a gap read that would forget every message recorded in its range, more than a few, is refused',
  {
    timeout: 30_000,
  },
  () =>
    withFailover({ channels: [GENERAL] }, async ({ fake, counting, general, takeOver }) => {
      const said: string[] = [];
      for (const text of ['one', 'two', 'three', 'four']) said.push(await general.post(`line ${text}`, true));
      await until(() => said.every((id) => counting.saves.has(id)));
      await takeOver(() => answerEmptyHistory(fake));
      assert.deepEqual(counting.forgotten, []);
    }),
);

test(
  'a message seen live that an earlier connection recorded is never taken for deleted by the gap read',
  {
    timeout: 30_000,
  },
  () =>
    withFailover({ channels: [GENERAL] }, async ({ fake, counting, general, takeOver }) => {
      // Recorded by an earlier connection (a reply it sent while closing), absent from the read (Discord's clock
      // behind ours): its echo reaches the new connection live, during the read, before the decision.
      const echo = messagePayload({ channelId: GENERAL, content: 'the reply sent while closing' });
      const id = echo.id as string;
      const ts = Number((BigInt(id) >> 22n) + 1_420_070_400_000n);
      await counting.memory.save([
        { message_id: id, ts, text: 'the reply', speaker_kind: 'self', channel_id: GENERAL },
      ]);
      await takeOver(async () => {
        // A read of two pages: the echo is dispatched as the first is asked for, the decision follows the second.
        for (let i = 0; i < 101; i += 1) await general.post(`meanwhile ${i}`, false);
        let echoed = false;
        fake.respond((call) => {
          if (call.method === 'GET' && call.path === `/channels/${GENERAL}/messages` && !echoed) {
            echoed = true;
            void fake.dispatch('MESSAGE_CREATE', echo);
          }
          return undefined;
        });
      });
      assert.deepEqual(counting.forgotten, []);
    }),
);
