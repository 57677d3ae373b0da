/** @module Tests for sending upserts posted to a store in this process: every slice at once, answered in full. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { createUpsertSender, type PostedBatch, type PostedUpserts } from './send-upserts.js';
import { UPSERT_SLICE_COMPONENTS } from './slice-upsert.js';

/**
 * A posted store whose answers the test gives, slice by slice. As the store thread does, a cancel drops the
 * slices it has not begun (the test marks one `begun` to hold it as being applied), answering an AbortError.
 */
function heldStore() {
  const posted: { batch: PostedBatch; begun: boolean; answer: (error?: Error) => void }[] = [];
  const store: PostedUpserts = {
    upsert: (_collection, batch, signal) =>
      new Promise<void>((resolve, reject) => {
        const slice = {
          batch,
          begun: false,
          answer: (error?: Error) => (error === undefined ? resolve() : reject(error)),
        };
        posted.push(slice);
        signal?.addEventListener('abort', () => {
          if (!slice.begun) reject(new DOMException('cancelled', 'AbortError'));
        });
      }),
  };
  return { store, posted };
}

/** Points of 3072-d, ten of which fill a bit under half a slice: 50 go as three slices (21, 21, 8). */
const points = Array.from({ length: 50 }, (_, i) => ({
  id: i + 1,
  vectors: new Float32Array(3072).fill(i),
  payload: { n: i },
}));
const noRest = {} as QdrantClient;
const settledYet = async (work: Promise<unknown>) => {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

describe('posted upserts', () => {
  test('a batch of many slices prints no listener-leak warning into the service log', async () => {
    const { store, posted } = heldStore();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const many = Array.from({ length: 300 }, (_, i) => ({ ...points[i % 50]!, id: i + 1 }));
      const sending = createUpsertSender(noRest, store, 10_000)('parts', many);
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(posted.length > 10, `${posted.length} slices`);
      for (const slice of posted) slice.answer();
      await sending;
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('every slice of a batch is posted before the first is answered, in order, and the call ends when all are', async () => {
    const { store, posted } = heldStore();
    assert.ok(points.length * 3072 > 2 * UPSERT_SLICE_COMPONENTS);
    const sending = createUpsertSender(noRest, store, 10_000)('parts', points);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      posted.map((p) => p.batch.ids.length),
      [21, 21, 8],
    );
    assert.deepEqual(
      posted.flatMap((p) => p.batch.ids),
      points.map((p) => p.id),
    );
    posted[0]!.answer();
    posted[1]!.answer();
    assert.equal(await settledYet(sending), false);
    posted[2]!.answer();
    await sending;
  });

  test('a refusal is reported once every slice is answered, the first in slice order', async () => {
    const { store, posted } = heldStore();
    const sending = createUpsertSender(noRest, store, 10_000)('parts', points);
    await new Promise((resolve) => setImmediate(resolve));
    posted[1]!.answer(new Error('second refused'));
    posted[0]!.answer();
    // A slice still on its way could land after whatever the caller does next (a forget's delete): wait for it.
    assert.equal(await settledYet(sending), false);
    posted[2]!.answer(new Error('third refused'));
    await assert.rejects(sending, /second refused/);
  });

  test('a slice the store does not answer in time fails the call as a REST timeout would, the slices not begun cancelled', async () => {
    const { store, posted } = heldStore();
    const sending = createUpsertSender(noRest, store, 30)('parts', points);
    await new Promise((resolve) => setImmediate(resolve));
    posted[0]!.answer();
    await assert.rejects(
      sending,
      /did not answer an upsert within 30 ms: 1 of 3 slices \(21 of 50 points\) were applied.*nothing of this upsert is left to land/,
    );
  });

  test('after a timeout the call fails only once the slice being applied has answered, and says it landed', async () => {
    const { store, posted } = heldStore();
    const sending = createUpsertSender(noRest, store, 30)('parts', points);
    await new Promise((resolve) => setImmediate(resolve));
    posted[0]!.answer();
    posted[1]!.begun = true;
    await new Promise((resolve) => setTimeout(resolve, 80));
    // Slice 2 is committed after the timeout: a caller told "failed" now could delete before it lands.
    assert.equal(await settledYet(sending), false);
    posted[1]!.answer();
    await assert.rejects(sending, /2 of 3 slices \(42 of 50 points\) were applied/);
  });

  test('a refusal is reported as the store answered it, not hidden by a later slice timing out', async () => {
    const { store, posted } = heldStore();
    const sending = createUpsertSender(noRest, store, 30)('parts', points);
    await new Promise((resolve) => setImmediate(resolve));
    posted[0]!.answer(Object.assign(new Error('Wrong input: vector dimension error'), { status: 400 }));
    await assert.rejects(sending, { status: 400, message: /vector dimension error/ });
  });

  test('when every slice was applied by the time the cancel reached the store, the call succeeds', async () => {
    const { store, posted } = heldStore();
    const sending = createUpsertSender(noRest, store, 30)('parts', points);
    await new Promise((resolve) => setImmediate(resolve));
    for (const slice of posted) slice.begun = true;
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const slice of posted) slice.answer();
    await sending;
  });
});
