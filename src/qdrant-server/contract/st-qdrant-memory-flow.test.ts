/**
 * @module Contract: the exact call sequence of st-qdrant-memory, sent as the browser sends it
 * (plain fetch, JSON content type, an Origin, a preflight first, no `wait`) (st-qdrant-memory.md).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { expectOk } from './expect-envelope.js';
import type { HttpReply } from './send-http.js';
import { eventually } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const origin = 'http://127.0.0.1:8000';

/** An 8-dim unit-ish embedding leaning towards axis `axis`, so similarities are predictable. */
function embedding(axis: number, lean = 0.1): number[] {
  return Array.from({ length: 8 }, (_, i) => (i === axis ? 1 : lean));
}

describe('st-qdrant-memory flow', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  /** A browser fetch: the preflight a JSON request triggers, then the request; both must allow the origin. */
  async function browserFetch(method: string, path: string, body?: unknown): Promise<HttpReply> {
    if (method !== 'GET') {
      const preflight = await target.http('OPTIONS', path, undefined, {
        Origin: origin,
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': target.apiKey ? 'api-key,content-type' : 'content-type',
      });
      assert.equal(preflight.status, 200, `preflight for ${method} ${path}`);
      assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
    }
    const reply = await target.http(method, path, body, { Origin: origin });
    assert.equal(reply.headers.get('access-control-allow-origin'), origin, `${method} ${path} lacks CORS`);
    return reply;
  }

  test('connect, create, save without wait, dedupe, recall, delete', async () => {
    const collection = target.uniqueCollection('mem_alice');
    const base = `/collections/${collection}`;

    // Connection test, then `collectionExists`: 404 means missing.
    assert.ok(Array.isArray(expectOk(await browserFetch('GET', '/collections')).collections));
    assert.equal((await browserFetch('GET', base)).status, 404);
    assert.equal(
      expectOk(await browserFetch('PUT', base, { vectors: { size: 8, distance: 'Cosine' } })),
      true,
    );
    const info = expectOk(await browserFetch('GET', base));
    assert.equal(info.config.params.vectors.size ?? info.config.params.vectors.default.size, 8);

    // Duplicate check before the first save: nothing there yet.
    const dupCheck = { vector: embedding(0), limit: 1, score_threshold: 0.92, with_payload: true };
    assert.deepEqual(expectOk(await browserFetch('POST', `${base}/points/search`, dupCheck)), []);

    const chunks = [
      {
        axis: 0,
        ids: 'Alice_1700000000000_5,Alice_1700000000001_6',
        text: '[2023-11-14]\nBob: hi\nAlice: hello',
      },
      {
        axis: 1,
        ids: 'Alice_1700000000002_50,Alice_1700000000003_51',
        text: '[2023-11-14]\nBob: tea?\nAlice: yes',
      },
      { axis: 2, ids: 'Alice_1700000000004_52', text: '[2023-11-14]\nBob: bye' },
    ].map((c) => ({
      id: randomUUID(),
      vector: embedding(c.axis),
      payload: {
        text: c.text,
        speakers: 'Bob, Alice',
        messageCount: c.ids.split(',').length * 2,
        timestamp: 1700000000000 + c.axis,
        messageIds: c.ids,
        isChunk: true,
      },
    }));
    for (const point of chunks) {
      const saved = expectOk(await browserFetch('PUT', `${base}/points`, { points: [point] }));
      assert.ok(['acknowledged', 'completed'].includes(saved.status));
    }

    // Un-waited writes become visible (at once on the embedded store, eventually on Qdrant).
    const first = chunks[0] as (typeof chunks)[number];
    await eventually(async () => {
      const hits = expectOk(await browserFetch('POST', `${base}/points/search`, dupCheck));
      assert.equal(hits.length, 1);
      assert.equal(hits[0].id, first.id);
      assert.deepEqual(hits[0].payload, first.payload);
      assert.ok(hits[0].score > 0.92);
    });

    // Recall: limit memoryLimit*2, threshold 0.3, payload included, best first.
    const recall = { vector: embedding(1, 0.2), limit: 10, score_threshold: 0.3, with_payload: true };
    const hits = expectOk(await browserFetch('POST', `${base}/points/search`, recall));
    assert.equal(hits[0].id, chunks[1]?.id);
    assert.equal(hits[0].payload.text, chunks[1]?.payload.text);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
    for (const hit of hits) assert.ok(hit.score > 0.3);

    // `chunkExists`: a should of match.text per message id, limit 1, no payload; reads result.points.
    const exists = async (...messageIds: string[]) => {
      const body = {
        filter: { should: messageIds.map((id) => ({ key: 'messageIds', match: { text: id } })) },
        limit: 1,
        with_payload: false,
      };
      const page = expectOk(await browserFetch('POST', `${base}/points/scroll`, body));
      return page.points as { id: string }[];
    };
    assert.deepEqual(await exists('Alice_1700000000001_6'), [{ id: first.id }]);
    assert.equal((await exists('Alice_1700000000009_99', 'Alice_1700000000004_52')).length, 1);
    assert.deepEqual(await exists('Alice_1700000000009_99'), []);
    // Substring semantics: id `_5` is "found" inside the stored `_50` too; st relies on exactly this rule.
    assert.equal((await exists('Alice_1700000000002_5')).length, 1);
    assert.deepEqual(await exists('alice_1700000000001_6'), []);

    assert.equal(expectOk(await browserFetch('DELETE', base)), true);
    assert.equal((await browserFetch('GET', base)).status, 404);
  });
});
