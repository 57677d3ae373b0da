import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { ApiKeyConfig } from '../config/config-types.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { testBot } from '../config/test-support/test-bot.js';
import { partsCollectionName } from './parts-collection-name.js';

const admin: ApiKeyConfig = {
  name: 'admin',
  key: 'admin-key-0123456789',
  bots: '*',
  sources: '*',
  scopes: ['admin'],
};
const headers = { authorization: `Bearer ${admin.key}` };
const DAY = Date.UTC(2026, 11, 1, 12);
const CHUNKS = 'mem_mythos';
const PARTS = partsCollectionName(CHUNKS);

type Message = Record<string, unknown>;
let clock = 0;
/** Each message a second after the one before, in the order the test writes them. */
const tick = () => {
  clock += 1000;
  return DAY + clock;
};
const user = (id: string, text: string, extra: Message = {}): Message => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  ts: tick(),
  discord_user_id: 'u-helen',
  speaker_name: 'Helen',
  ...extra,
});
const self = (id: string, text: string, extra: Message = {}): Message => ({
  speaker_kind: 'self',
  text,
  message_id: id,
  ts: tick(),
  ...extra,
});

describe('the parts index follows its chunks', () => {
  let service: TestService;
  let client: QdrantClient;
  before(async () => {
    service = await startTestService({ bots: [testBot('mythos')], config: { apiKeys: [admin] } });
    client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
  });
  after(() => service.close());

  const save = async (messages: Message[], source = 'discord') => {
    const response = await service.post('/save', { bot: 'mythos', source, messages }, headers);
    assert.equal(response.status, 200, JSON.stringify(response.json));
  };
  const forget = async (body: Message) => {
    const response = await service.post('/forget', { bot: 'mythos', ...body }, headers);
    assert.equal(response.status, 200, JSON.stringify(response.json));
  };
  const flush = () => service.writer.runOnce({ flush: true });
  const scroll = async (collection: string) =>
    (await client.scroll(collection, { limit: 1000, with_payload: true })).points;

  /** Every part belongs to a stored chunk, holds only its messages and lines, in its place; every chunk is covered. */
  const assertPartsMirrorChunks = async () => {
    const chunks = new Map((await scroll(CHUNKS)).map((p) => [String(p.id), p.payload!]));
    const parts = await scroll(PARTS);
    const covered = new Map<string, Set<string>>();
    for (const part of parts) {
      const payload = part.payload!;
      const chunk = chunks.get(String(payload.chunkId));
      assert.ok(chunk, `part ${part.id} points at a chunk that is gone`);
      const chunkIds = String(chunk.messageIds).split(',');
      const lines = String(chunk.text).split('\n');
      for (const id of String(payload.messageIds).split(',')) {
        assert.ok(chunkIds.includes(id), `part ${part.id} holds ${id}, which its chunk no longer holds`);
        const seen = covered.get(String(payload.chunkId)) ?? new Set();
        covered.set(String(payload.chunkId), seen.add(id));
      }
      for (const line of String(payload.text).split('\n')) assert.ok(lines.includes(line), line);
      for (const field of ['source', 'channelId', 'guildId', 'isDm'])
        assert.equal(payload[field], chunk[field], `part ${part.id}: ${field}`);
    }
    for (const [id, chunk] of chunks) {
      if (chunk.source === undefined) continue; // SillyTavern's own points get parts only by a reindex
      assert.deepEqual(
        [...(covered.get(id) ?? [])].sort(),
        String(chunk.messageIds).split(',').sort(),
        `chunk ${id} is covered`,
      );
    }
    return parts;
  };
  const partsHolding = async (messageId: string) =>
    (await scroll(PARTS)).filter((p) => String(p.payload!.messageIds).split(',').includes(messageId));

  test('every stored chunk gets parts covering each message, linked to it and in its place', async () => {
    await save([
      user('a1', 'My sister Anna lives in Lisbon', { channel_id: 'c-a', guild_id: 'g1' }),
      self('a2', 'Does Anna teach piano there?', { channel_id: 'c-a', guild_id: 'g1' }),
      user('a3', 'Yes, at a music school', { channel_id: 'c-a', guild_id: 'g1' }),
    ]);
    await flush();
    const parts = await assertPartsMirrorChunks();
    assert.ok(parts.length >= 2);
    assert.equal((await partsHolding('a2')).length, 2, 'a middle message sits with each neighbor');
  });

  test('an edit leaves no part with the old text', async () => {
    await save([
      user('e1', 'I live in Porto', { channel_id: 'c-e' }),
      self('e2', 'Porto is lovely', { channel_id: 'c-e' }),
    ]);
    await flush();
    await save([user('e1', 'I live in Faro', { channel_id: 'c-e', edited: true })]);
    await flush();
    await assertPartsMirrorChunks();
    const texts = (await partsHolding('e1')).map((p) => String(p.payload!.text));
    assert.ok(texts.length > 0 && texts.every((t) => t.includes('Faro') && !t.includes('I live in Porto')));
  });

  for (const [selector, body, gone, kept] of [
    ['message_ids', { message_ids: ['m2'] }, ['m2'], ['m1', 'm3']],
    ['discord_user_id', { discord_user_id: 'u-bob' }, ['b1', 'b3'], ['b2']],
    ['user_id', { user_id: 'u-kim' }, ['k1'], ['k2']],
    ['channel_id', { channel_id: 'c-gone' }, ['h1', 'h2'], ['h3']],
    ['guild_id', { guild_id: 'g-gone' }, ['i1', 'i2'], ['i3']],
    ['source', { source: 'hermes' }, ['s1', 's2'], ['s3']],
  ] as const) {
    test(`forget by ${selector} leaves no part holding a forgotten message`, async () => {
      const where = { channel_id: `c-${selector}` };
      if (selector === 'message_ids') {
        await save([
          user('m1', 'first thing', where),
          self('m2', 'secret middle', where),
          user('m3', 'last', where),
        ]);
      } else if (selector === 'discord_user_id') {
        const bob = { ...where, discord_user_id: 'u-bob', speaker_name: 'Bob' };
        await save([
          user('b1', 'bob says hi', bob),
          user('b2', 'helen answers', where),
          user('b3', 'bob again', bob),
        ]);
      } else if (selector === 'user_id') {
        // In a guild: in a DM, a forget-me also takes the agent's replies.
        const guild = { ...where, guild_id: 'g-k' };
        await save([
          user('k1', 'kim speaks', { ...guild, user_id: 'u-kim', discord_user_id: undefined }),
          self('k2', 'reply', guild),
        ]);
      } else if (selector === 'channel_id') {
        await save([
          user('h1', 'in the gone channel', { channel_id: 'c-gone' }),
          self('h2', 'yes', { channel_id: 'c-gone' }),
        ]);
        await save([user('h3', 'elsewhere', where)]);
      } else if (selector === 'guild_id') {
        const gone = { channel_id: 'c-gg', guild_id: 'g-gone' };
        await save([user('i1', 'guild talk', gone), self('i2', 'guild reply', gone)]);
        await save([user('i3', 'other guild', { ...where, guild_id: 'g-kept' })]);
      } else {
        await save([user('s1', 'said on hermes', where), self('s2', 'hermes reply', where)], 'hermes');
        await save([user('s3', 'said on discord', where)]);
      }
      await flush();
      for (const id of gone) assert.ok((await partsHolding(id)).length > 0, `${id} has parts before`);
      await forget(body);
      await flush();
      await assertPartsMirrorChunks();
      for (const id of gone) assert.equal((await partsHolding(id)).length, 0, `no part holds ${id}`);
      for (const id of kept) assert.ok((await partsHolding(id)).length > 0, `${id} keeps its parts`);
    });
  }

  test('forgetting every message of a chunk deletes its parts with its point', async () => {
    const where = { channel_id: 'c-whole' };
    await save([user('w1', 'a whole secret chunk', where), self('w2', 'kept quiet', where)]);
    await flush();
    const chunkId = (await partsHolding('w1'))[0]?.payload?.chunkId;
    assert.ok(chunkId);
    await forget({ message_ids: ['w1', 'w2'] });
    await assertPartsMirrorChunks();
    const left = (await scroll(PARTS)).filter((p) => p.payload!.chunkId === chunkId);
    assert.equal(left.length, 0);
  });

  test('explain says which parts and signals ranked each hit; without it the answer is as before', async () => {
    const body = { bot: 'mythos', query_text: 'Where does Anna live?' };
    const plain = await service.post('/retrieve', body, headers);
    assert.equal(plain.status, 200);
    assert.ok(plain.json.hits.length > 0);
    assert.ok(plain.json.hits.every((hit: object) => !('explain' in hit)));
    const explained = await service.post('/retrieve', { ...body, explain: true }, headers);
    const [top] = explained.json.hits;
    assert.equal(top.id, plain.json.hits[0].id);
    assert.equal(explained.json.formatted, plain.json.formatted);
    assert.equal(top.explain.mode, 'hybrid');
    assert.ok(top.explain.signals.part_lexical, 'the lexical signal found it');
    assert.ok(top.explain.parts.some((p: { message_ids: string }) => p.message_ids.includes('a1')));
    const bad = await service.post('/retrieve', { ...body, explain: 'yes' }, headers);
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.field, 'explain');
  });
});

test('a collection with chunks stored before its parts index recalls chunk-only until reindexed', async () => {
  const service = await startTestService({ bots: [testBot('older')] });
  try {
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    await client.createCollection('mem_older', { vectors: { size: 64, distance: 'Cosine' } });
    // A chunk an earlier memory-pool stored (it has a source) and whose parts were never built.
    await client.upsert('mem_older', {
      wait: true,
      points: [
        {
          id: '00000000-0000-4000-8000-00000000000a',
          vector: Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0)),
          payload: { text: '[2026-01-01]\nHelen: old', messageIds: 'o0', isChunk: true, source: 'discord' },
        },
      ],
    });
    const saved = await service.post('/save', {
      bot: 'older',
      source: 'discord',
      messages: [user('o1', 'Anna lives in Lisbon'), self('o2', 'Lisbon is sunny')],
    });
    assert.equal(saved.status, 200);
    await service.writer.runOnce({ flush: true });
    const parts = await client.scroll(partsCollectionName('mem_older'), { limit: 10 });
    assert.ok(parts.points.length > 0, 'new chunks still get their parts');
    const recalled = await service.post('/retrieve', {
      bot: 'older',
      query_text: 'Where does Anna live?',
      explain: true,
    });
    assert.ok(recalled.json.hits.length > 0);
    for (const hit of recalled.json.hits) assert.equal(hit.explain.mode, 'chunk-only');
  } finally {
    await service.close();
  }
});
