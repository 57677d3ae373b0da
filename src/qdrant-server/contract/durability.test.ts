/**
 * @module Contract (embedded only): every write the store answered survives `kill -9`, including the
 * un-waited upserts st-qdrant-memory sends, once the CLI restarts on the same data dir.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { assertClose, expectOk } from './expect-envelope.js';
import { sendHttp } from './send-http.js';
import { type StoreProcess, startStoreProcess } from './store-process.js';
import { isRealQdrant } from './target.js';

describe('durability', { skip: isRealQdrant() ? 'embedded store only (QDRANT_URL is set)' : false }, () => {
  test('answered writes, waited or not, survive SIGKILL and a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mp-durability-'));
    let store: StoreProcess | undefined;
    try {
      store = await startStoreProcess(dataDir);
      const call = (method: string, path: string, body?: unknown) =>
        sendHttp((store as StoreProcess).url, method, path, body);
      expectOk(await call('PUT', '/collections/dur_dot', { vectors: { size: 4, distance: 'Dot' } }));
      expectOk(await call('PUT', '/collections/dur_cos', { vectors: { size: 4, distance: 'Cosine' } }));
      expectOk(
        await call('PUT', '/collections/dur_dot/index?wait=true', {
          field_name: 'n',
          field_schema: 'integer',
        }),
      );

      const waited = Array.from({ length: 20 }, (_, i) => ({
        id: i + 1,
        vector: [i, 0.31, -1.5, 1],
        payload: { n: i + 1, batch: 'waited' },
      }));
      assert.equal(
        expectOk(await call('PUT', '/collections/dur_dot/points?wait=true', { points: waited })).status,
        'completed',
      );
      // st saves one chunk per request and never passes `wait`.
      const unwaited = Array.from({ length: 10 }, (_, i) => ({
        id: randomUUID(),
        vector: [0.5, i, 2.7, 0],
        payload: { n: 100 + i, batch: 'unwaited', messageIds: `Alice_1700000000000_${i}` },
      }));
      for (const point of unwaited)
        expectOk(await call('PUT', '/collections/dur_dot/points', { points: [point] }));
      expectOk(
        await call('POST', '/collections/dur_dot/points/payload?wait=true', {
          payload: { edited: true },
          points: [1],
        }),
      );
      expectOk(await call('POST', '/collections/dur_dot/points/delete', { points: [2] }));
      expectOk(
        await call('PUT', '/collections/dur_cos/points', { points: [{ id: 1, vector: [2, 6, 7, 8] }] }),
      );
      await store.kill();

      store = await startStoreProcess(dataDir);
      const listed = expectOk(await call('GET', '/collections')).collections.map(
        (c: { name: string }) => c.name,
      );
      assert.deepEqual(listed, ['dur_cos', 'dur_dot']);
      const info = expectOk(await call('GET', '/collections/dur_dot'));
      assert.equal(info.points_count, 29);
      assert.deepEqual(info.config.params.vectors, { size: 4, distance: 'Dot' });
      assert.deepEqual(info.payload_schema.n, { data_type: 'integer', points: 29 });

      const expected = [
        ...waited
          .filter((p) => p.id !== 2)
          .map((p) => (p.id === 1 ? { ...p, payload: { ...p.payload, edited: true } } : p)),
        ...unwaited,
      ];
      const found = expectOk(
        await call('POST', '/collections/dur_dot/points', {
          ids: [...expected.map((p) => p.id), 2],
          with_payload: true,
          with_vector: true,
        }),
      );
      assert.deepEqual(found, expected);
      const cosine = expectOk(await call('GET', '/collections/dur_cos/points/1'));
      assertClose(cosine.vector, [0.16169041, 0.48507124, 0.5659165, 0.64676166]);

      // The restarted store keeps writing on top of what it recovered.
      const after = await call('PUT', '/collections/dur_dot/points?wait=true', {
        points: [{ id: 2, vector: [1, 1, 1, 1] }],
      });
      assert.equal(expectOk(after).status, 'completed');
      assert.equal(expectOk(await call('POST', '/collections/dur_dot/points/count', {})).count, 30);
    } finally {
      await store?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
