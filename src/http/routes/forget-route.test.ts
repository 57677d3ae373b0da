/**
 * @module `POST /forget` in-process for SillyTavern's points named by id (`point_ids` with
 * `include_unsourced: true`): admin only (403 naming the fix), 400 naming the field, and the published forms'
 * answers unchanged beside it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../../config/test-support/test-bot.js';
import { sillyTavernPayload } from '../test-support/sillytavern-payload.js';

const ADMIN = 'forget-route-admin-key-0123456789';
const CURATOR = 'forget-route-curator-key-0123456789';
const TEXTS = ['[2026-11-01]\nHelen: one', '[2026-11-02]\nHelen: two', '[2026-11-03]\nHelen: three'];

describe('POST /forget with point_ids', () => {
  let service: TestService;
  let client: QdrantClient;
  const forget = async (body: Record<string, unknown>, key = ADMIN) => {
    const response = await service.app.request('/forget', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bot: 'mythos', ...body }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
    return { status: response.status, json: (await response.json()) as any };
  };
  const ids = async () => (await client.scroll('mem_mythos', { limit: 100 })).points.map((p) => p.id).sort();

  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos')],
      config: {
        apiKeys: [
          { name: 'admin', key: ADMIN, scopes: ['admin'], bots: '*', sources: '*' },
          { name: 'curator', key: CURATOR, scopes: ['forget', 'retrieve'], bots: '*', sources: '*' },
        ],
      },
    });
    client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    const vectors = await new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).embed(TEXTS);
    await client.createCollection('mem_mythos', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    await client.upsert('mem_mythos', {
      wait: true,
      points: TEXTS.map((text, i) => ({
        id: 7000 + i,
        vector: Array.from(vectors[i]!),
        payload: sillyTavernPayload(text, i),
      })),
    });
  });
  after(() => service.close());

  test('a key without admin gets 403 naming the admin scope, and nothing goes', async () => {
    const denied = await forget({ point_ids: [7000], include_unsourced: true }, CURATOR);
    assert.equal(denied.status, 403);
    assert.match(denied.json.error.message, /needs the admin scope/);
    assert.deepEqual(await ids(), [7000, 7001, 7002]);
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ point_ids: [7000] }, 'include_unsourced'],
      [{ point_ids: [7000], include_unsourced: false }, 'include_unsourced'],
      [{ point_ids: [], include_unsourced: true }, 'point_ids'],
      [{ point_ids: [7000, 'not-an-id'], include_unsourced: true }, 'point_ids[1]'],
      [{ point_ids: [-1], include_unsourced: true }, 'point_ids[0]'],
      [{ point_ids: [1.5], include_unsourced: true }, 'point_ids[0]'],
      [{ point_ids: 7000, include_unsourced: true }, 'point_ids'],
      [{ point_ids: Array.from({ length: 1001 }, (_, i) => i), include_unsourced: true }, 'point_ids'],
      [{ point_ids: [7000], source: null, include_unsourced: true }, 'point_ids'],
      [{ point_ids: [7000], message_ids: ['a'], include_unsourced: true }, 'point_ids'],
    ];
    for (const [body, field] of cases) {
      const answer = await forget(body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.json.error.field, field, JSON.stringify(body));
    }
    assert.deepEqual(await ids(), [7000, 7001, 7002]);
  });

  test('an admin key forgets exactly the named SillyTavern points; a repeat answers zeros', async () => {
    const answer = await forget({ point_ids: [7001], include_unsourced: true });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.deepEqual(answer.json, {
      ok: true,
      points_deleted: 1,
      points_rewritten: 0,
      pending_dropped: 0,
      messages_forgotten: 2,
    });
    assert.deepEqual(await ids(), [7000, 7002]);
    const again = await forget({ point_ids: [7001, 424242], include_unsourced: true });
    assert.deepEqual(
      [again.json.points_deleted, again.json.messages_forgotten],
      [0, 0],
      'gone, or never there',
    );
  });

  test("the published forms answer as before: source: null without the confirmation, and all of SillyTavern's", async () => {
    const unconfirmed = await forget({ source: null });
    assert.equal(unconfirmed.status, 400);
    assert.equal(unconfirmed.json.error.field, 'source');
    const all = await forget({ source: null, include_unsourced: true });
    assert.deepEqual(all.json, {
      ok: true,
      points_deleted: 2,
      points_rewritten: 0,
      pending_dropped: 0,
      messages_forgotten: 0,
    });
    assert.deepEqual(await ids(), []);
  });
});
