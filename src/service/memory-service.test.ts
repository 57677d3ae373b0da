import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from './test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';

// Midday, so the window's messages share one UTC day (a chunk closes where the day changes).
const DAY = Date.UTC(2026, 10, 30, 12, 0, 0);

describe('memory service: /save then /retrieve through the embedded store', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos', { speakerAliases: { '705512345678901234': 'Helen' } })],
    });
  });
  after(() => service.close());

  test('a saved window is chunked in the shared format and recalled with the formatted block', async () => {
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        {
          speaker_kind: 'user',
          text: 'I adopted a grey cat named Pixel',
          message_id: '1001',
          ts: DAY,
          discord_user_id: '705512345678901234',
          channel_id: 'c1',
          guild_id: 'g1',
        },
        {
          speaker_kind: 'self',
          text: 'Pixel is a lovely name for a cat, <@705512345678901234>!',
          message_id: '1002',
          ts: DAY + 60_000,
          channel_id: 'c1',
          guild_id: 'g1',
        },
      ],
    });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.json, { ok: true, accepted: 2, duplicates: 0, edited: 0, forgotten: 0 });

    const before = await service.post('/retrieve', { bot: 'mythos', query_text: 'grey cat named Pixel' });
    assert.deepEqual(before.json, { hits: [], formatted: '' }, 'messages not yet chunked are never returned');

    await service.writer.runOnce({ flush: true });

    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    const page = await client.scroll('mem_mythos', { limit: 10, with_payload: true });
    assert.equal(page.points.length, 1);
    assert.deepEqual(page.points[0]!.payload, {
      text: '[2026-11-30]\nHelen: I adopted a grey cat named Pixel\nMythos: Pixel is a lovely name for a cat, Helen!',
      speakers: 'Helen, Mythos',
      messageCount: 2,
      timestamp: DAY,
      messageIds: '1001,1002',
      isChunk: true,
      source: 'discord',
      channelId: 'c1',
      guildId: 'g1',
    });

    const recalled = await service.post('/retrieve', { bot: 'mythos', query_text: 'grey cat named Pixel' });
    assert.equal(recalled.status, 200);
    assert.equal(recalled.json.hits.length, 1);
    const hit = recalled.json.hits[0];
    assert.equal(hit.messageIds, '1001,1002');
    assert.equal(hit.source, 'discord');
    assert.equal(
      recalled.json.formatted,
      `\n[Past chat memories]\n\n• Conversation (Helen, Mythos): "[2026-11-30] Helen: I adopted a grey cat named Pixel Mythos: Pixel is a lovely name for a cat, Helen!" (score: ${(hit.score * 100).toFixed(0)}%)\n\n`,
    );

    const excluded = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'grey cat named Pixel',
      exclude_message_ids: ['1002'],
    });
    // The reader has 1002 already: it is never returned; its chunk's other message still may be, alone.
    assert.deepEqual(
      excluded.json.hits.map((h: { messageIds: string }) => h.messageIds),
      ['1001'],
    );
    assert.ok(!excluded.json.formatted.includes('Pixel is a lovely name'));
  });

  test('points SillyTavern wrote (no source, random UUID) are recalled like any other', async () => {
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    const text =
      '[2026-10-01]\nHelen: My favourite tea is smoky lapsang souchong\nMythos: Smoky, like a campfire.';
    const [vector] = await new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).embed([text]);
    // Exactly what st-qdrant-memory sends: PUT points without `wait`, no `source`.
    const response = await fetch(`${service.storeUrl}/collections/mem_mythos/points`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        points: [
          {
            id: '3f2b8c1e-9d4a-4b6e-8f1a-2c3d4e5f6a7b',
            vector: Array.from(vector!),
            payload: {
              text,
              speakers: 'Helen, Mythos',
              messageCount: 2,
              timestamp: 1759276800000,
              messageIds: 'Mythos_1759276800000_4,Mythos_1759276860000_5',
              isChunk: true,
            },
          },
        ],
      }),
    });
    assert.equal(response.status, 200);
    assert.equal((await client.count('mem_mythos')).count, 2);
    const recalled = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'favourite tea lapsang souchong',
    });
    const hit = recalled.json.hits[0];
    assert.equal(hit.id, '3f2b8c1e-9d4a-4b6e-8f1a-2c3d4e5f6a7b');
    assert.equal(hit.source, undefined);
    assert.match(
      recalled.json.formatted,
      /• Conversation \(Helen, Mythos\): "\[2026-10-01\] Helen: My favourite tea/,
    );
  });

  test('re-sending a window is idempotent per message id', async () => {
    const window = {
      bot: 'mythos',
      messages: [{ speaker_kind: 'user', text: 'hello again', message_id: 'r-1', ts: DAY }],
    };
    assert.deepEqual((await service.post('/save', window)).json, {
      ok: true,
      accepted: 1,
      duplicates: 0,
      edited: 0,
      forgotten: 0,
    });
    assert.deepEqual((await service.post('/save', window)).json, {
      ok: true,
      accepted: 0,
      duplicates: 1,
      edited: 0,
      forgotten: 0,
    });
  });

  test('a window with half an emoji is stored once, not re-edited on every re-send', async () => {
    const window = {
      bot: 'mythos',
      messages: [{ speaker_kind: 'user', text: 'cut emoji \ud83d', message_id: 'surrogate-1' }],
    };
    assert.equal((await service.post('/save', window)).json.accepted, 1);
    const again = await service.post('/save', window);
    assert.deepEqual([again.json.duplicates, again.json.edited], [1, 0]);
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      ['{not json', '(body)'],
      [
        { bot: 'mythos', messages: [{ speaker_kind: 'bot', text: 'x', message_id: '1' }] },
        'messages[0].speaker_kind',
      ],
      [
        { bot: 'mythos', messages: [{ speaker_kind: 'user', text: '   ', message_id: '1' }] },
        'messages[0].text',
      ],
      [
        { bot: 'mythos', messages: [{ speaker_kind: 'user', text: 'x', message_id: 12 }] },
        'messages[0].message_id',
      ],
      [{ bot: 'mythos', messages: 'hi' }, 'messages'],
      [
        { bot: 'mythos', messages: [{ speaker_kind: 'user', text: 'x', message_id: 'a,b' }] },
        'messages[0].message_id',
      ],
      [
        { bot: 'mythos', messages: [{ speaker_kind: 'user', text: 'x', message_id: '1', ts: 9e15 }] },
        'messages[0].ts',
      ],
      [
        { bot: 'mythos', messages: [{ speaker_kind: 'user', text: 'x', message_id: '1', ts: 5 }] },
        'messages[0].ts',
      ],
      [{ bot: 'mythos', query_text: 5 }, 'messages'],
    ];
    for (const [body, field] of cases) {
      const response = await service.post('/save', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.json.error.field, field);
      assert.equal(response.json.error.code, 'validation_failed');
    }
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      speaker_kind: 'user',
      text: 'x',
      message_id: `m${i}`,
    }));
    const tooMany = await service.post('/save', { bot: 'mythos', messages: many });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json.error.field, 'messages');
  });

  test("GET /bots/{bot}/stats counts points (SillyTavern's apart), journaled messages by source and the queue", async () => {
    // The two api messages are days apart by their timestamps ('hello again' at DAY, the emoji one now), so
    // the older one is a chunk of its own at once and only the newer one waits for idleness.
    await service.writer.runOnce();
    const response = await fetch(`${service.url}/bots/mythos/stats`);
    assert.equal(response.status, 200);
    const stats = (await response.json()) as { messages: { oldestPendingAt: unknown } };
    const { oldestPendingAt } = stats.messages;
    assert.ok(
      typeof oldestPendingAt === 'number' && oldestPendingAt <= Date.now(),
      'the oldest pending arrival',
    );
    assert.deepEqual(stats, {
      bot: 'mythos',
      collection: 'mem_mythos',
      model: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).model,
      points: { total: 3, unsourced: 1, bySource: { api: 1, discord: 1 } },
      messages: { bySource: { api: 2, discord: 2 }, pending: 1, oldestPendingAt, forgotten: 0 },
      chunks: { planned: 0, stored: 2 },
    });
    assert.equal((await fetch(`${service.url}/bots/nobody/stats`)).status, 404);
  });

  test('a collection deleted behind our back (e.g. from SillyTavern) answers empty, then is recreated on write', async () => {
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    await client.deleteCollection('mem_mythos');
    const recalled = await service.post('/retrieve', { bot: 'mythos', query_text: 'grey cat named Pixel' });
    assert.deepEqual([recalled.status, recalled.json.hits], [200, []]);
    await service.post('/save', {
      bot: 'mythos',
      messages: [{ speaker_kind: 'user', text: 'the parrot is called Kiwi', message_id: 'after-delete' }],
    });
    await service.writer.runOnce({ flush: true });
    assert.equal((await client.collectionExists('mem_mythos')).exists, true);
    const again = await service.post('/retrieve', { bot: 'mythos', query_text: 'parrot called Kiwi' });
    assert.match(again.json.formatted, /the parrot is called Kiwi/);
  });

  test('an unknown bot is a 404 listing the configured bots', async () => {
    const response = await service.post('/retrieve', { bot: 'nobody', query_text: 'x' });
    assert.equal(response.status, 404);
    assert.equal(response.json.error.code, 'unknown_bot');
    assert.match(response.json.error.message, /configured bots: mythos/);
  });
});
