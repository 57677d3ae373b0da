import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

const DAY = Date.UTC(2026, 4, 7, 9);
const where = { channel_id: 'c1' };
const user = (id: string, text: string, minute: number) => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  ts: DAY + minute * 60_000,
  discord_user_id: 'u-helen',
  speaker_name: 'Helen',
  ...where,
});
const self = (id: string, text: string, minute: number) => ({
  speaker_kind: 'self',
  text,
  message_id: id,
  ts: DAY + minute * 60_000,
  ...where,
});
/** One chunk of six messages (the test bot's chunks are small: this size is set below). */
const CONVERSATION = [
  user('t1', 'Good morning! The weather is grey again.', 0),
  self('t2', 'Morning, Helen. Grey suits a slow day.', 1),
  user('t3', 'My brother Tomas adopted a greyhound called Pixel.\nShe is three years old.', 2),
  self('t4', 'What a lovely name for a greyhound!', 3),
  user('t5', 'Anyway, I have to buy groceries later.', 4),
  self('t6', 'Enjoy the shopping trip.', 5),
];
type Hit = {
  id: string;
  text: string;
  messageIds: string;
  speakers: string;
  messageCount: number;
  timestamp: number;
};

describe('hybrid recall returns passages of chunks', () => {
  let service: TestService;
  let chunk: { id: string; payload: Record<string, unknown> };
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos', { chunk: { minChars: 5000, maxChars: 8000, idleMs: 60_000 } })],
    });
    const saved = await service.post('/save', { bot: 'mythos', source: 'discord', messages: CONVERSATION });
    assert.equal(saved.status, 200);
    await service.writer.runOnce({ flush: true });
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    const [point] = (await client.scroll('mem_mythos', { limit: 10, with_payload: true })).points;
    chunk = { id: String(point!.id), payload: point!.payload! };
    assert.equal(chunk.payload.messageCount, 6, 'one chunk holds the whole conversation');
  });
  after(() => service.close());

  const retrieve = async (body: Record<string, unknown>) => {
    const response = await service.post('/retrieve', { bot: 'mythos', ...body });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    return response.json as { hits: Hit[]; formatted: string };
  };

  test('the top hit holds the messages that matched, formatted as a chunk of them, not the whole chunk', async () => {
    const { hits, formatted } = await retrieve({ query_text: 'What is the name of Tomas greyhound?' });
    const [top] = hits;
    assert.equal(top!.id, chunk.id, "a passage keeps its chunk point's id");
    assert.equal(top!.messageIds, 't3,t4');
    assert.equal(
      top!.text,
      '[2026-05-07]\nHelen: My brother Tomas adopted a greyhound called Pixel.\nShe is three years old.\n' +
        'Mythos: What a lovely name for a greyhound!',
    );
    assert.equal(top!.speakers, 'Helen, Mythos');
    assert.equal(top!.messageCount, 2);
    assert.equal(top!.timestamp, DAY + 2 * 60_000);
    assert.ok(
      formatted.startsWith(
        '\n[Past chat memories]\n\n• Conversation (Helen, Mythos): "[2026-05-07] Helen: My',
      ),
    );
    const returned = hits.flatMap((hit) => hit.messageIds.split(','));
    assert.equal(new Set(returned).size, returned.length, 'no message is returned twice');
  });

  test("each hit's score is its passage's dense cosine, as the block shows it; the fusion is under explain", async () => {
    // One word of the conversation among many it never uses: its part is found by that word, far in meaning.
    const { hits, formatted } = (await retrieve({
      query_text: 'Tomas zebra quantum violin harbor marble nebula crescent lantern',
      explain: true,
    })) as unknown as {
      hits: (Hit & {
        score: number;
        explain: { fused: number; signals: Record<string, { score: number }> };
      })[];
      formatted: string;
    };
    assert.ok(hits.length >= 1);
    for (const hit of hits) {
      const dense = hit.explain.signals.part_dense?.score;
      // Found by its words alone: the cosine is asked of the store, below the bot's 0.3 floor (0 would mean it was never asked).
      if (dense === undefined) assert.ok(hit.score !== 0 && hit.score < 0.3, JSON.stringify(hit));
      else assert.equal(hit.score, dense);
      assert.ok(formatted.includes(`(score: ${(hit.score * 100).toFixed(0)}%)`));
    }
    assert.ok(
      hits.some((hit) => hit.explain.signals.part_dense === undefined),
      'a hit found by words alone',
    );
    assert.ok(hits[0]!.score < 0.3, 'a weak match says so, however far ahead of the others');
  });

  test('an excluded message is never returned, while its neighbors still are', async () => {
    const { hits } = await retrieve({
      query_text: 'What is the name of Tomas greyhound?',
      exclude_message_ids: ['t4'],
    });
    const returned = hits.flatMap((hit) => hit.messageIds.split(','));
    assert.ok(!returned.includes('t4'));
    assert.ok(returned.includes('t3'));
    assert.ok(hits.every((hit) => !hit.text.includes('What a lovely name')));
  });

  test('after a forget no passage holds the forgotten message or its text', async () => {
    const forgot = await service.post('/forget', { bot: 'mythos', message_ids: ['t3'] });
    assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
    await service.writer.runOnce({ flush: true });
    const { hits } = await retrieve({ query_text: 'What is the name of Tomas greyhound?' });
    assert.ok(hits.length > 0);
    for (const hit of hits) {
      assert.ok(!hit.messageIds.split(',').includes('t3'));
      assert.ok(!hit.text.includes('Pixel'));
    }
  });
});

test("SillyTavern's chunks (no source, no parts) are found on the same dense scale and returned whole", async () => {
  const service = await startTestService({ bots: [testBot('mythos')] });
  try {
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [user('d1', 'I planted tomatoes today.', 0), self('d2', 'Tomatoes love the sun.', 1)],
    });
    assert.equal(saved.status, 200);
    await service.writer.runOnce({ flush: true });
    const text = '[2026-01-02]\nHelen: Our cat Biscuit knocked over the lamp\nLuna: Biscuit is a menace';
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    const info = await client.getCollection('mem_mythos');
    const size = (info.config.params.vectors as { size: number }).size;
    await client.upsert('mem_mythos', {
      wait: true,
      points: [
        {
          id: '00000000-0000-4000-8000-000000000051',
          vector: Array.from(new HashingEmbedder({ dimensions: size }).embedOne(text)),
          payload: {
            text,
            speakers: 'Helen, Luna',
            messageCount: 2,
            timestamp: 1,
            messageIds: 'st1,st2',
            isChunk: true,
          },
        },
      ],
    });
    const response = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'What did Biscuit the cat knock over?',
      explain: true,
    });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    const [top] = response.json.hits;
    assert.equal(top.text, text, 'whole, exactly as SillyTavern stored it');
    assert.equal(top.messageIds, 'st1,st2');
    assert.equal(top.explain.mode, 'hybrid');
    assert.ok(top.explain.signals.chunk_dense);
    assert.deepEqual(top.explain.parts, []);
  } finally {
    await service.close();
  }
});
