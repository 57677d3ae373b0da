/** @module Tests that a stopped and started store serves its HNSW graph at once, as a Qdrant client sees it (issue 36). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { startQdrantServer } from './server.js';

const DIM = 16;
const POINTS = 2000;

async function call(url: string, method: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests index into Qdrant's response shapes.
  return (await response.json()) as any;
}

const indexedCount = async (url: string) =>
  (await call(`${url}/collections/kept`, 'GET')).result.indexed_vectors_count as number;

describe('a restarted store, seen through the Qdrant API', () => {
  test('indexed_vectors_count is whole at once after a stop and start, and searches find each point', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mp-graph-restart-'));
    after(() => rmSync(dataDir, { recursive: true, force: true }));
    const random = seededRandom(5);
    const vectors = Array.from({ length: POINTS }, () => Array.from({ length: DIM }, () => random() * 2 - 1));

    const first = await startQdrantServer({ dataDir, port: 0 });
    // Qdrant's smallest full_scan_threshold, 10 KB: a graph from 640 vectors of 16 dimensions on.
    await call(`${first.url}/collections/kept`, 'PUT', {
      vectors: { size: DIM, distance: 'Cosine' },
      hnsw_config: { full_scan_threshold: 10 },
    });
    const points = vectors.map((vector, i) => ({ id: i + 1, vector, payload: {} }));
    await call(`${first.url}/collections/kept/points?wait=true`, 'PUT', { points });
    while ((await indexedCount(first.url)) < POINTS) await new Promise((resolve) => setTimeout(resolve, 10));
    await first.close();

    const second = await startQdrantServer({ dataDir, port: 0 });
    try {
      assert.equal(await indexedCount(second.url), POINTS);
      for (const i of [0, 777, POINTS - 1]) {
        const hits = await call(`${second.url}/collections/kept/points/search`, 'POST', {
          vector: vectors[i],
          limit: 1,
        });
        assert.equal(hits.result[0].id, i + 1);
      }
    } finally {
      await second.close();
    }
  });
});
