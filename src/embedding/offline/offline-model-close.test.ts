/**
 * @module The offline model pool's close() on real ONNX Runtime workers: jobs not yet computing fail
 * retryably, the worker ends the job it computes, exits by itself, and no job is sent after.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { startModelWorker } from './model-worker.js';
import { closeOfflineModel, OfflineEmbedder } from './offline-embedder.js';
import { OfflineModelClient } from './offline-model-client.js';

/** Where onnxruntime-node has no binary (Intel macOS, musl), the service runs on TensorFlow.js: skip, not fail. */
const noOnnxRuntime = await import('onnxruntime-node').then(
  () => false,
  () => 'onnxruntime-node does not load on this platform (the offline model runs on TensorFlow.js)',
);

const LONG = 'the harbour at dawn and the night train to Lisbon '.repeat(30);

function assertStopping(error: unknown): true {
  assert.ok(isMemoryPoolError(error));
  assert.equal(error.code, 'embedding_failed');
  assert.equal(error.retryable, true, 'the texts were never the problem: another process can embed them');
  assert.match(error.message, /stopping/);
  return true;
}

test('close() lets the worker end its job, fails the waiting ones retryably and stops the worker', {
  skip: noOnnxRuntime,
}, async () => {
  const workers: Worker[] = [];
  const client = new OfflineModelClient({
    workers: 1,
    startWorker: () => {
      const worker = startModelWorker('onnxruntime');
      workers.push(worker);
      return worker;
    },
  });
  await client.embed(['load the model'], false);
  const jobs = client.embedBatches(
    Array.from({ length: 12 }, () => Array.from({ length: 8 }, () => LONG)),
    false,
  );
  const settled = Promise.allSettled(jobs);
  await jobs[0];
  let exited = false;
  workers[0]!.once('exit', () => {
    exited = true;
  });
  await client.close();
  assert.ok(exited, 'close() resolves once the worker has exited');
  const results = await settled;
  for (const result of results) {
    if (result.status === 'fulfilled') assert.equal(result.value[0]?.length, 512);
    else assertStopping(result.reason);
  }
  assert.equal(results.at(-1)?.status, 'rejected', 'jobs still queued at close are not computed');
  await assert.rejects(client.embed(['after the stop'], true), assertStopping);
  assert.equal(workers.length, 1, 'no worker is started after close()');
  assert.equal(client.close(), client.close(), 'a second close() waits for the same stop');
});

test('an embed while the shared pool closes is told it is stopping and starts no new pool (review s26 final, 3)', {
  skip: noOnnxRuntime,
}, async () => {
  const embedder = new OfflineEmbedder({ workers: 1 });
  await embedder.embed(['load the model']);
  const bulk = embedder.embed(Array.from({ length: 8 }, (_, i) => `${i} ${LONG}`)).catch(() => undefined);
  const closing = closeOfflineModel();
  // A new pool here would still be loading or computing when the caller's process.exit lands: an abort.
  await assert.rejects(embedder.embed(['a question that came late']), assertStopping);
  await closing;
  await bulk;
  assert.equal(embedder.runtime, undefined, 'no pool is left once the close is done');
});
