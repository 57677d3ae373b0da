import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { RecallScope } from '../config/config-types.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { matchFilter } from '../store/test-support/match-filter.js';
import { retrieveRequestSchema } from '../wire/retrieve-request.js';
import { buildRecallFilter } from './recall-scope.js';

const SCOPES: RecallScope[] = ['global', 'guild', 'channel', 'dm-private'];
// One bot per scope, each with its own collection holding the same memories.
const bots = SCOPES.map((scope) =>
  testBot(`bot-${scope}`, { collection: `mem_${scope}`, retrieve: { limit: 10, scoreThreshold: -1, scope } }),
);

describe('recall privacy scopes over points from two guilds, a DM and SillyTavern', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ bots });
    const say = (text: string, id: string, where: Record<string, string>) =>
      Promise.all(
        SCOPES.map((scope) =>
          service.post('/save', {
            bot: `bot-${scope}`,
            source: 'discord',
            messages: [{ speaker_kind: 'user', text, message_id: id, speaker_name: 'Helen', ...where }],
          }),
        ),
      );
    await say('the lighthouse in guild A', 'a', { channel_id: 'a1', guild_id: 'ga' });
    await say('the lighthouse in guild B', 'b', { channel_id: 'b1', guild_id: 'gb' });
    await say('the lighthouse secret in a DM', 'dm', { channel_id: 'dm1' });
    await service.writer.runOnce({ flush: true });
    const text = '[2026-10-01]\nHelen: the lighthouse from SillyTavern';
    const [vector] = await new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).embed([text]);
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    for (const scope of SCOPES) {
      await client.upsert(`mem_${scope}`, {
        wait: true,
        points: [
          {
            id: 1,
            vector: Array.from(vector!),
            payload: {
              text,
              speakers: 'Helen',
              messageCount: 1,
              timestamp: 1,
              messageIds: 'st_1',
              isChunk: true,
            },
          },
        ],
      });
    }
  });
  after(() => service.close());

  /** Which memories a recall returns, by label: a, b, dm, st. */
  async function recall(scope: RecallScope, where: Record<string, unknown> = {}): Promise<string[]> {
    const response = await service.post('/retrieve', {
      bot: `bot-${scope}`,
      query_text: 'the lighthouse',
      ...where,
    });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    return (response.json.hits as { messageIds: string }[])
      .map((h) => (h.messageIds === 'st_1' ? 'st' : h.messageIds))
      .sort();
  }

  test('global: one history everywhere', async () => {
    assert.deepEqual(await recall('global', { guild_id: 'ga', channel_id: 'a1' }), ['a', 'b', 'dm', 'st']);
  });

  test('guild: that guild plus neutral points; a DM sees itself plus neutral', async () => {
    assert.deepEqual(await recall('guild', { guild_id: 'ga', channel_id: 'a1' }), ['a', 'st']);
    assert.deepEqual(await recall('guild', { guild_id: 'gb' }), ['b', 'st']);
    assert.deepEqual(await recall('guild', { channel_id: 'dm1' }), ['dm', 'st']);
    assert.deepEqual(await recall('guild'), ['st']);
  });

  test('channel: that channel plus neutral points', async () => {
    assert.deepEqual(await recall('channel', { guild_id: 'ga', channel_id: 'a1' }), ['a', 'st']);
    assert.deepEqual(await recall('channel', { guild_id: 'ga', channel_id: 'elsewhere' }), ['st']);
  });

  test('dm-private: DM memories only in that DM, everything else global', async () => {
    assert.deepEqual(await recall('dm-private', { guild_id: 'ga', channel_id: 'a1' }), ['a', 'b', 'st']);
    assert.deepEqual(await recall('dm-private', { channel_id: 'dm1' }), ['a', 'b', 'dm', 'st']);
    assert.deepEqual(await recall('dm-private', { channel_id: 'dm-other' }), ['a', 'b', 'st']);
  });

  test('a request can narrow the scope, never widen it', async () => {
    assert.deepEqual(await recall('global', { guild_id: 'ga', scope: 'guild' }), ['a', 'st']);
    assert.deepEqual(await recall('guild', { guild_id: 'ga', scope: 'global' }), ['a', 'st']);
    assert.deepEqual(await recall('global', { sources: ['discord'] }), ['a', 'b', 'dm']);
    assert.deepEqual(await recall('guild', { guild_id: 'ga', sources: ['discord'] }), ['a']);
    // `channel` is no wider than `guild` on any axis: both filters apply.
    assert.deepEqual(await recall('guild', { guild_id: 'gb', channel_id: 'b1', scope: 'channel' }), [
      'b',
      'st',
    ]);
  });
});

describe('readable_channel_ids', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos', { retrieve: { limit: 10, scoreThreshold: -1, scope: 'guild' } })],
    });
    const say = (
      text: string,
      id: string,
      place: { channel_id: string; guild_id?: string; is_dm?: boolean },
    ) =>
      service.post('/save', {
        bot: 'mythos',
        source: 'discord',
        messages: [{ speaker_kind: 'user', text, message_id: id, speaker_name: 'Helen', ...place }],
      });
    await say('the lighthouse keeper shared a staff secret', 'staff', {
      channel_id: 'staff-room',
      guild_id: 'ga',
    });
    await say('the lighthouse keeper waved at everyone', 'open', { channel_id: 'general', guild_id: 'ga' });
    await say('the lighthouse keeper whispered in a staff thread', 'thread', {
      channel_id: 'staff-thread',
      guild_id: 'ga',
    });
    // Shared across interfaces: a chat of no server (as Hermes saves), not a DM.
    await say('the lighthouse keeper told the agent a story', 'shared', {
      channel_id: 'agent-chat',
      is_dm: false,
    });
    await service.writer.runOnce({ flush: true });
  });
  after(() => service.close());

  async function recall(extra: Record<string, unknown> = {}) {
    const response = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'the lighthouse keeper',
      guild_id: 'ga',
      channel_id: 'general',
      explain: true,
      ...extra,
    });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    return response.json as { hits: { messageIds: string; explain: { mode: string } }[] };
  }
  const recalled = (hits: { messageIds: string }[]) => hits.map((h) => h.messageIds).sort();

  test("the server's memories come only from readable channels; a memory of no server still comes", async () => {
    assert.deepEqual(recalled((await recall()).hits), ['open', 'shared', 'staff', 'thread']);
    const { hits } = await recall({ readable_channel_ids: [' general ', ''] });
    assert.deepEqual(recalled(hits), ['open', 'shared']);
    // The parts are searched too (hybrid), with the same filter.
    assert.ok(hits.every((h) => h.explain.mode === 'hybrid'));
  });

  test('an empty list vouches for no channel of the server: only what belongs to none is recalled', async () => {
    assert.deepEqual(recalled((await recall({ readable_channel_ids: [] })).hits), ['shared']);
  });

  test('bad input is a 400 naming the field; the list needs guild_id', async () => {
    const many = Array.from({ length: 20_001 }, (_, i) => `c${i}`);
    for (const extra of [
      { guild_id: 'ga', readable_channel_ids: 'general' },
      { guild_id: 'ga', readable_channel_ids: [1] },
      { guild_id: 'ga', readable_channel_ids: many },
      { readable_channel_ids: ['general'] },
    ]) {
      const response = await service.post('/retrieve', {
        bot: 'mythos',
        query_text: 'the lighthouse keeper',
        ...extra,
      });
      assert.equal(response.status, 400, JSON.stringify(extra).slice(0, 80));
      assert.match(JSON.stringify(response.json), /readable_channel_ids/);
    }
  });
});

test('scope channel: a point naming only another server is not shared with this one; a point naming none is', () => {
  const filter = buildRecallFilter('global', { guildId: 'ga', channelId: 'a1' }, { scope: 'channel' });
  const kept = (payload: Record<string, unknown>) => matchFilter(filter, { id: 1, payload });
  assert.equal(kept({ guildId: 'gb' }), false, 'another server, no channel');
  assert.equal(kept({ guildId: 'ga' }), true, 'this server, no channel');
  assert.equal(kept({}), true, 'no place at all (SillyTavern)');
  assert.equal(kept({ guildId: 'ga', channelId: 'a2' }), false, 'another channel');
  assert.equal(kept({ guildId: 'ga', channelId: 'a1' }), true, 'this channel');
});

test('the exported request schema stays a plain object schema: clients may pick or omit its fields', () => {
  assert.deepEqual(Object.keys(retrieveRequestSchema.pick({ bot: true, query_text: true }).shape), [
    'bot',
    'query_text',
  ]);
  assert.ok(retrieveRequestSchema.omit({ explain: true }).safeParse({ bot: 'b', query_text: 'q' }).success);
});
