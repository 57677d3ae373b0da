/**
 * @module Editing a SillyTavern point's text in a collection of st-qdrant-memory's hybrid fork (named `dense`
 * vector + sparse `bm25`): both vectors are rebuilt from the new text, as the fork itself would write them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../../config/test-support/test-bot.js';
import { encodeStBm25 } from '../../store/st-hybrid/st-bm25-encoding.js';
import { sillyTavernPayload } from '../test-support/sillytavern-payload.js';

const KEY = 'viewer-hybrid-key-1234567890abcdef';
const COLLECTION = 'mem_hybrid';
const BEFORE = '[2026-03-01]\nHelen: 我喜欢猫 and my cat Mochi.\nMythos: Mochi is lovely.';
const AFTER = '[2026-03-01]\nHelen: 我喜欢狗 and my dog Biscuit.\nMythos: Biscuit is lovely.';
const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });

let service: TestService;
let client: QdrantClient;

before(async () => {
  service = await startTestService({
    bots: [testBot('hybrid'), testBot('upgraded')],
    config: { apiKeys: [{ name: 'admin', key: KEY, scopes: ['admin'], bots: '*', sources: '*' }] },
  });
  client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
  // The fork's hybrid collection, and two of its points as it writes them.
  await client.createCollection(COLLECTION, {
    vectors: { dense: { size: TEST_DIMENSIONS, distance: 'Cosine' } },
    sparse_vectors: { bm25: { modifier: 'idf' } },
  });
  const texts = [BEFORE, '[2026-03-02]\nHelen: The piano tuner comes on Thursday.'];
  const dense = await embedder.embed(texts);
  await client.upsert(COLLECTION, {
    wait: true,
    points: texts.map((text, i) => {
      const sparse = encodeStBm25(text);
      return {
        id: `0000000${i}-0000-4000-8000-000000000000`,
        vector: {
          dense: Array.from(dense[i]!),
          bm25: { indices: [...sparse.indices], values: [...sparse.values] },
        },
        payload: sillyTavernPayload(text, i),
      };
    }),
  });
});
after(() => service.close());

const ID = '00000000-0000-4000-8000-000000000000';

/** The ids the fork's lexical half finds for `query` (the sparse vector alone). */
async function lexicalHits(query: string): Promise<string[]> {
  const sparse = encodeStBm25(query);
  const answer = await client.query(COLLECTION, {
    query: { indices: [...sparse.indices], values: [...sparse.values] },
    using: 'bm25',
    limit: 5,
  });
  return answer.points.map((p) => String(p.id));
}

test("an edit rebuilds the hybrid point's dense and bm25 vectors from the new text, same id, payload kept", async () => {
  assert.deepEqual(await lexicalHits('Mochi 猫'), [ID]);
  const edited = await service.app.request(`/bots/hybrid/points/${ID}/text`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: AFTER }),
  });
  assert.equal(edited.status, 200, await edited.clone().text());

  const [stored] = await client.retrieve(COLLECTION, { ids: [ID], with_payload: true, with_vector: true });
  const vectors = stored!.vector as { dense: number[]; bm25: { indices: number[]; values: number[] } };
  const expectedSparse = encodeStBm25(AFTER);
  const byIndex = (v: { indices: readonly number[]; values: readonly number[] }) =>
    new Map(v.indices.map((index, i) => [index, v.values[i]]));
  assert.deepEqual(byIndex(vectors.bm25), byIndex(expectedSparse), 'bm25 as the fork encodes the new text');
  const [expectedDense] = await embedder.embed([AFTER]);
  const cosine = vectors.dense.reduce((sum, x, i) => sum + x * expectedDense![i]!, 0);
  assert.ok(cosine > 0.999, `dense vector is the new text's (cosine ${cosine})`);
  assert.equal(stored!.payload?.text, AFTER);
  assert.equal(stored!.payload?.messageIds, 'st-0-a,st-0-b', 'the rest of the payload is kept');
  assert.equal(stored!.payload?.source, undefined, 'still a SillyTavern point');

  // The fork's lexical search now finds the point by its new words only.
  assert.deepEqual(await lexicalHits('Biscuit 狗'), [ID]);
  assert.deepEqual(await lexicalHits('Mochi 猫'), []);
  assert.equal((await client.count(COLLECTION, { exact: true })).count, 2);
});

test('an edit after the fork upgraded the collection to its hybrid layout (deleted, recreated) writes the new layout', async () => {
  const plain = 'mem_upgraded';
  const put = (text: string) =>
    service.app.request(`/bots/upgraded/points/1/text`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
  const payload = { speakers: 'Helen', messageCount: 1, timestamp: 1, messageIds: 'st-u', isChunk: true };
  const [vector] = await embedder.embed(['first']);
  await client.createCollection(plain, { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
  await client.upsert(plain, {
    wait: true,
    points: [{ id: 1, vector: Array.from(vector!), payload: { ...payload, text: 'first' } }],
  });
  assert.equal((await put('an edit while unnamed')).status, 200);
  // The fork's "upgrade to BM25": the collection is deleted and recreated hybrid, its points uploaded again.
  await client.deleteCollection(plain);
  await client.createCollection(plain, {
    vectors: { dense: { size: TEST_DIMENSIONS, distance: 'Cosine' } },
    sparse_vectors: { bm25: { modifier: 'idf' } },
  });
  const sparse = encodeStBm25('an edit while unnamed');
  await client.upsert(plain, {
    wait: true,
    points: [
      {
        id: 1,
        vector: {
          dense: Array.from(vector!),
          bm25: { indices: [...sparse.indices], values: [...sparse.values] },
        },
        payload: { ...payload, text: 'an edit while unnamed' },
      },
    ],
  });
  const edited = await put('Helen: the kettle whistles');
  assert.equal(edited.status, 200, await edited.clone().text());
  const [stored] = await client.retrieve(plain, { ids: [1], with_vector: true });
  const bm25 = (stored!.vector as { bm25: { indices: number[] } }).bm25;
  assert.deepEqual(new Set(bm25.indices), new Set(encodeStBm25('Helen: the kettle whistles').indices));
});
