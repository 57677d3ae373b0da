/** @module Contract: many concurrent writers and readers, then an exact check of count and contents. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { expectOk } from './expect-envelope.js';
import { createCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const writers = 8;
const upsertsPerWriter = 25;
const batchSize = 2;

/** Integer Dot vectors round-trip exactly, so every stored vector can be compared with ===. */
const vectorFor = (writer: number, seq: number, slot: number) => [writer, seq, slot, 1];
const idFor = (writer: number, seq: number, slot: number) => writer * 1000 + seq * batchSize + slot;

describe('concurrency', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  test(`${writers} writers x ${upsertsPerWriter} upserts with concurrent searches and scrolls lose nothing`, async () => {
    const name = await createCollection(target, 'conc', 4, 'Dot');
    const clientFor = () =>
      new QdrantClient({
        url: target.url,
        checkCompatibility: false,
        ...(target.apiKey ? { apiKey: target.apiKey } : {}),
      });
    let writing = true;

    const writeAll = async (writer: number) => {
      const client = clientFor();
      for (let seq = 0; seq < upsertsPerWriter; seq++) {
        const points = Array.from({ length: batchSize }, (_, slot) => ({
          id: idFor(writer, seq, slot),
          vector: vectorFor(writer, seq, slot),
          payload: { writer, seq, slot },
        }));
        const result = await client.upsert(name, { wait: true, points });
        assert.equal(result.status, 'completed');
      }
      // A payload write by filter racing the other writers' upserts.
      await client.setPayload(name, {
        payload: { done: true },
        filter: { must: [{ key: 'writer', match: { value: writer } }] },
      });
    };

    const readWhileWriting = async () => {
      let reads = 0;
      while (writing || reads === 0) {
        const hits = expectOk(
          await target.http('POST', `/collections/${name}/points/search`, { vector: [1, 1, 0, 0], limit: 5 }),
        );
        for (let i = 1; i < hits.length; i++)
          assert.ok(hits[i - 1].score >= hits[i].score, 'search out of order');
        const page = expectOk(await target.http('POST', `/collections/${name}/points/scroll`, { limit: 50 }));
        for (let i = 1; i < page.points.length; i++)
          assert.ok(page.points[i - 1].id < page.points[i].id, 'scroll out of order');
        expectOk(await target.http('POST', `/collections/${name}/points/count`, {}));
        reads++;
      }
      return reads;
    };

    const readers = Array.from({ length: 3 }, readWhileWriting);
    await Promise.all(Array.from({ length: writers }, (_, w) => writeAll(w + 1))).finally(() => {
      writing = false;
    });
    await Promise.all(readers);

    const total = writers * upsertsPerWriter * batchSize;
    assert.equal((await target.client.count(name, { exact: true })).count, total);
    const done = await target.client.count(name, {
      filter: { must: [{ key: 'done', match: { value: true } }] },
    });
    assert.equal(done.count, total);

    const seen = new Map<number, { payload: unknown; vector: unknown }>();
    let offset: number | undefined;
    do {
      const page = expectOk(
        await target.http('POST', `/collections/${name}/points/scroll`, {
          limit: 150,
          with_vector: true,
          ...(offset === undefined ? {} : { offset }),
        }),
      );
      for (const p of page.points) seen.set(p.id, { payload: p.payload, vector: p.vector });
      offset = page.next_page_offset ?? undefined;
    } while (offset !== undefined);
    assert.equal(seen.size, total);
    for (let w = 1; w <= writers; w++) {
      for (let seq = 0; seq < upsertsPerWriter; seq++) {
        for (let slot = 0; slot < batchSize; slot++) {
          assert.deepEqual(seen.get(idFor(w, seq, slot)), {
            payload: { writer: w, seq, slot, done: true },
            vector: vectorFor(w, seq, slot),
          });
        }
      }
    }
    assert.equal(expectOk(await target.http('GET', `/collections/${name}`)).points_count, total);
  });
});
