/**
 * The three public forks of st-qdrant-memory sharing a pool with memory-pool: each fork's own requests
 * (written for these tests from its source: URL-encoded names, its vectors, its query bodies) against the
 * embedded store, and memory-pool saving and recalling in the same collections.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultCollectionName, perChatCollectionName } from '../config/st-collection-name.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from './test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';

const DAY = Date.UTC(2026, 9, 1, 12, 0, 0);
const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
const embed = async (text: string) => Array.from((await embedder.embed([text]))[0]!);

/** starrysky180111 v3.3's sparse vector, re-derived here independently (regex runs, BigInt FNV-1a). */
function forkSparse(text: string): Map<number, number> {
  const lower = text.toLowerCase();
  const tokens = [...(lower.match(/[a-z0-9_]{2,}/g) ?? [])];
  const cjkRun = /[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff\u3040-\u309f\u30a0-\u30ff\uac00-\ud7af]+/g;
  for (const [run] of lower.matchAll(cjkRun)) {
    for (let i = 0; i < run.length; i++)
      tokens.push(...(i + 1 < run.length ? [run[i]!, run.slice(i, i + 2)] : [run[i]!]));
  }
  const tf = new Map<number, number>();
  for (const token of tokens) {
    let hash = 0x811c9dc5n;
    for (let i = 0; i < token.length; i++)
      hash = ((hash ^ BigInt(token.charCodeAt(i))) * 0x01000193n) & 0xffffffffn;
    tf.set(Number(hash), (tf.get(Number(hash)) ?? 0) + 1);
  }
  return new Map([...tf].map(([index, n]) => [index, (n * 2.2) / (n + 1.2)]));
}

const toWire = (sparse: Map<number, number>) => ({
  indices: [...sparse.keys()],
  values: [...sparse.values()],
});

/** qqpf4zrrwp-blip's collection name, re-derived here. */
function qqpfCollection(name: string): string {
  let kept = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the fork's rule names U+0000 and U+001F.
    .split(/[<>:"/\\|?*\s\u0000\u001F]+/)
    .join('_')
    .replace(/_+/g, '_');
  kept = kept.replace(/^_/, '').replace(/_$/, '') || 'default';
  return `mem_${kept.slice(0, 255 - 'mem'.length - 1)}`;
}

/** Shadota's per-chat collection: both parts sanitized the upstream way. */
function shadotaCollection(character: string, chatId: string): string {
  const clean = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '_')
      .replace(/_+/g, '_')
      .replace(/^_|_$/g, '');
  return `mem_${clean(character)}_${clean(chatId)}`;
}

describe("st-qdrant-memory's forks", () => {
  const miku = defaultCollectionName('初音ミク', 'starrysky180111');
  const alisa = defaultCollectionName('Алиса Смит', 'qqpf4zrrwp-blip');
  const sera = shadotaCollection('Seraphina', 'Seraphina - 2025-05-01@12h30m00s');
  let service: TestService;
  let fork: (
    method: string,
    collection: string,
    path?: string,
    body?: unknown,
    // biome-ignore lint/suspicious/noExplicitAny: the tests read the store's JSON directly
  ) => Promise<{ status: number; json: any }>;

  before(async () => {
    service = await startTestService({
      bots: [
        testBot('miku', { selfSpeaker: '初音ミク', collection: miku }),
        testBot('alisa', { selfSpeaker: 'Алиса Смит', collection: alisa }),
        testBot('sera', {
          selfSpeaker: 'Seraphina',
          collection: perChatCollectionName('Seraphina', 'Seraphina - 2025-05-01@12h30m00s'),
          stChatId: 'Seraphina - 2025-05-01@12h30m00s',
        }),
      ],
    });
    // Both Unicode-keeping forks put encodeURIComponent(name) in the URL; a plain fetch, no `wait`.
    fork = async (method, collection, path = '', body = undefined) => {
      const response = await fetch(
        `${service.storeUrl}/collections/${encodeURIComponent(collection)}${path}`,
        {
          method,
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
      );
      return { status: response.status, json: await response.json().catch(() => undefined) };
    };
  });
  after(() => service.close());

  async function saveAndFlush(bot: string, id: string, user: string, reply: string) {
    const saved = await service.post('/save', {
      bot,
      messages: [
        { speaker_kind: 'user', speaker_name: 'Helen', text: user, message_id: `${id}-u`, ts: DAY },
        { speaker_kind: 'self', text: reply, message_id: `${id}-s`, ts: DAY + 1000 },
      ],
    });
    assert.equal(saved.status, 200);
    await service.writer.runOnce({ flush: true });
  }

  test("starrysky180111's hybrid layout: memory-pool writes the fork's vectors and both find each other's memories", async () => {
    assert.equal(miku, 'mem_初音ミク');
    assert.equal((await fork('GET', miku)).status, 404);
    const created = await fork('PUT', miku, '', {
      vectors: { dense: { size: TEST_DIMENSIONS, distance: 'Cosine' } },
      sparse_vectors: { bm25: { modifier: 'idf' } },
    });
    assert.equal(created.status, 200);
    const forkText = '[2026-09-30]\nHelen: 私の猫の名前はモチです\n初音ミク: モチはかわいいね！';
    const stored = await fork('PUT', miku, '/points', {
      points: [
        {
          id: '0b8e6a52-3f4d-4c1e-9a7b-5d2c1e0f9a8b',
          vector: { dense: await embed(forkText), bm25: toWire(forkSparse(forkText)) },
          payload: {
            text: forkText,
            speakers: 'Helen, 初音ミク',
            messageCount: 2,
            timestamp: DAY - 86_400_000,
            messageIds: '初音ミク_1759233600000_4,初音ミク_1759233660000_5',
            isChunk: true,
          },
        },
      ],
    });
    assert.equal(stored.status, 200);

    await saveAndFlush(
      'miku',
      'm1',
      'My hamster Pudding sleeps in a teacup every night',
      'Pudding in a teacup is adorable',
    );
    const scrolled = await fork('POST', miku, '/points/scroll', {
      limit: 10,
      with_payload: true,
      with_vector: true,
    });
    const ours = scrolled.json.result.points.find(
      (p: { payload: { source?: string } }) => p.payload.source === 'api',
    );
    assert.ok(ours, 'memory-pool wrote into the hybrid collection');
    // Exactly the fork's vectors: its dense layout, and its BM25 encoding of the chunk text.
    assert.equal(ours.vector.dense.length, TEST_DIMENSIONS);
    const expected = forkSparse(ours.payload.text);
    const got = new Map<number, number>(
      ours.vector.bm25.indices.map((index: number, i: number) => [index, ours.vector.bm25.values[i]]),
    );
    assert.deepEqual([...got.keys()].sort(), [...expected.keys()].sort());
    for (const [index, value] of expected)
      assert.ok(Math.abs(got.get(index)! - value) < 1e-6, `value of ${index}`);

    // The fork's hybrid search (its exact body) finds memory-pool's memory first...
    const question = 'where does Pudding the hamster sleep?';
    const hybrid = await fork('POST', miku, '/points/query', {
      prefetch: [
        { query: await embed(question), using: 'dense', limit: 20 },
        { query: toWire(forkSparse(question)), using: 'bm25', limit: 20 },
      ],
      query: { fusion: 'rrf' },
      limit: 10,
      with_payload: true,
    });
    assert.equal(hybrid.status, 200);
    assert.equal(hybrid.json.result.points[0].id, ours.id);
    // ...its dedupe check (a named search) sees it, and its dense-only fallback query works.
    const dedupe = await fork('POST', miku, '/points/search', {
      vector: { name: 'dense', vector: ours.vector.dense },
      limit: 1,
      score_threshold: 0.92,
      with_payload: true,
    });
    assert.equal(dedupe.json.result[0]?.id, ours.id);
    const denseOnly = await fork('POST', miku, '/points/query', {
      prefetch: [{ query: await embed('?!'), using: 'dense', limit: 20 }],
      query: await embed('?!'),
      limit: 10,
      with_payload: true,
      using: 'dense',
    });
    assert.equal(denseOnly.status, 200);

    // memory-pool recalls the fork's memory through BM25 too: with a similarity bar no dense hit can pass,
    // only the fork's exact words ("モチ") find it.
    const recalled = await service.post('/retrieve', {
      bot: 'miku',
      query_text: 'モチ',
      score_threshold: 0.999,
    });
    assert.equal(recalled.status, 200);
    assert.equal(recalled.json.hits[0]?.id, '0b8e6a52-3f4d-4c1e-9a7b-5d2c1e0f9a8b');
    assert.match(recalled.json.formatted, /私の猫の名前はモチです/);
    const recalledOurs = await service.post('/retrieve', {
      bot: 'miku',
      query_text: 'hamster Pudding teacup',
    });
    assert.equal(recalledOurs.json.hits[0]?.id, ours.id);
  });

  test("qqpf4zrrwp-blip's Unicode names: memory-pool's default collection is the fork's, and they share it", async () => {
    assert.equal(alisa, qqpfCollection('Алиса Смит'));
    assert.equal(alisa, 'mem_Алиса_Смит');
    assert.equal(
      (await fork('PUT', alisa, '', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } })).status,
      200,
    );
    const text =
      '[2026-09-30]\nHelen: Я люблю пить чай с малиновым вареньем\nАлиса Смит: Малиновое варенье чудесно.';
    const stored = await fork('PUT', alisa, '/points', {
      points: [
        {
          id: '6c1f0e2d-8a3b-4f5c-9d6e-7a8b9c0d1e2f',
          vector: await embed(text),
          payload: {
            text,
            speakers: 'Helen, Алиса Смит',
            messageCount: 2,
            timestamp: DAY,
            messageIds: 'x_1_1,x_2_2',
            isChunk: true,
          },
        },
      ],
    });
    assert.equal(stored.status, 200);
    const recalled = await service.post('/retrieve', {
      bot: 'alisa',
      query_text: 'чай с малиновым вареньем',
    });
    assert.equal(recalled.json.hits[0]?.id, '6c1f0e2d-8a3b-4f5c-9d6e-7a8b9c0d1e2f');

    await saveAndFlush('alisa', 'a1', 'My violin teacher lives in Vienna', 'Vienna is a city of music');
    const search = await fork('POST', alisa, '/points/search', {
      vector: await embed('violin teacher Vienna'),
      limit: 10,
      score_threshold: 0.3,
      with_payload: true,
    });
    assert.ok(
      search.json.result.some((p: { payload: { text: string } }) =>
        p.payload.text.includes('violin teacher'),
      ),
    );
  });

  test("Shadota's per-chat collection: a bot mapped to it by an explicit collection shares that chat's memory", async () => {
    assert.equal(sera, 'mem_seraphina_seraphina_-_2025-05-01_12h30m00s');
    assert.equal(
      (await fork('PUT', sera, '', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } })).status,
      200,
    );
    const text =
      '[2026-09-30]\nHelen: The lighthouse key is hidden under the blue stone\nSeraphina: I will keep it safe.';
    const chatId = 'Seraphina - 2025-05-01@12h30m00s';
    await fork('PUT', sera, '/points', {
      points: [
        {
          id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
          vector: await embed(text),
          payload: {
            text,
            speakers: 'Helen, Seraphina',
            messageCount: 2,
            timestamp: DAY,
            messageIds: 'a,b',
            isChunk: true,
            chatId,
          },
        },
      ],
    });
    const recalled = await service.post('/retrieve', {
      bot: 'sera',
      query_text: 'lighthouse key blue stone',
    });
    assert.equal(recalled.json.hits[0]?.id, '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d');
    await saveAndFlush('sera', 's1', 'We found a map of the northern caves', 'The caves hold old secrets');
    const counted = await fork('POST', sera, '/points/count', { exact: true });
    assert.equal(counted.json.result.count, 2);
    // The fork's own recall keeps only this chat's points (payload chatId): memory-pool's carry it.
    const forkRecall = await fork('POST', sera, '/points/search', {
      vector: await embed('map of the northern caves'),
      limit: 5,
      score_threshold: 0.3,
      with_payload: true,
      filter: { must: [{ key: 'chatId', match: { value: chatId } }] },
    });
    const found = forkRecall.json.result.find((p: { payload: { text: string } }) =>
      p.payload.text.includes('northern caves'),
    );
    assert.equal(found?.payload.chatId, chatId);
    assert.equal(found?.payload.source, 'api');
  });
});
