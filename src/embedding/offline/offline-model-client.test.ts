/**
 * @module Tests for the offline model pool's scheduling, with stand-in workers (no model): bulk jobs sent
 * ahead, longest first, and queries taking turns.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { OfflineModelClient } from './offline-model-client.js';

/** Stand-in token ids for fake workers: a text's code points, so a test can read back what was sent. */
const encodeCodePoints = (text: string) => Array.from(text, (c) => c.codePointAt(0)!);
const decodeCodePoints = (ids: Int32Array) => String.fromCodePoint(...ids);

/**
 * A stand-in model worker: answers each job after `delayMs`, one job at a time as the real one does, with
 * one vector per text whose first value is the text's length in ids (so a test sees which text it is for).
 */
function startFakeWorker(delayMs: number): Worker {
  return new Worker(
    `const { parentPort } = require('node:worker_threads');
     let free = Date.now();
     parentPort.on('message', (job) => {
       free = Math.max(free, Date.now()) + ${delayMs};
       setTimeout(() => {
       const vectors = job.tokenIds.map((ids) => Float32Array.of(ids.length, 0, 0, 0));
       parentPort.postMessage({ id: job.id, vectors }, vectors.map((v) => v.buffer));
       }, free - Date.now());
     });`,
    { eval: true },
  );
}

test('a long query runs on one worker at a time, so a short query sent after it starts at once on another', async () => {
  const sent: string[] = [];
  let inFlightLong = 0;
  let mostInFlightLong = 0;
  const client = new OfflineModelClient({
    workers: 2,
    encode: encodeCodePoints,
    startWorker: () => {
      const worker = startFakeWorker(20);
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message: { tokenIds: Int32Array[] }) => {
        const texts = message.tokenIds.map(decodeCodePoints);
        sent.push(...texts);
        if (texts[0]!.startsWith('long')) mostInFlightLong = Math.max(mostInFlightLong, ++inFlightLong);
        post(
          message,
          message.tokenIds.map((ids) => ids.buffer as ArrayBuffer),
        );
      };
      worker.on('message', () => {
        inFlightLong = Math.max(0, inFlightLong - 1);
      });
      return worker;
    },
  });
  const long = client.embedBatches(
    Array.from({ length: 6 }, (_, i) => [`long query window ${i}`]),
    true,
  );
  const short = client.embed(['short query'], true);
  await Promise.all([...long, short]);
  // Windows of one query waited in line before: the short query started only after all six.
  assert.equal(sent.indexOf('short query'), 1, `sent in the order ${sent.join(', ')}`);
  assert.equal(mostInFlightLong, 1);
  assert.equal(sent.length, 7);
});

test('long queries leave one worker to short ones, which go ahead of their waiting windows (issue 37)', async () => {
  // Which worker computes a long window now, to see that long queries never hold both workers.
  const longOn = new Set<number>();
  let mostWorkersOnLong = 0;
  let started = 0;
  const client = new OfflineModelClient({
    workers: 2,
    encode: encodeCodePoints,
    startWorker: () => {
      const number = started++;
      const worker = startFakeWorker(20);
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message: { tokenIds: Int32Array[] }) => {
        if (decodeCodePoints(message.tokenIds[0]!).startsWith('long')) longOn.add(number);
        mostWorkersOnLong = Math.max(mostWorkersOnLong, longOn.size);
        post(
          message,
          message.tokenIds.map((ids) => ids.buffer as ArrayBuffer),
        );
      };
      worker.on('message', () => longOn.delete(number));
      return worker;
    },
  });
  // Both workers loaded first, as the service's are once warm (two short queries at once start both).
  await Promise.all([client.embed(['warm 1'], true), client.embed(['warm 2'], true)]);
  assert.equal(started, 2);
  const answered: string[] = [];
  const track = (label: string, promise: Promise<unknown>) => promise.then(() => answered.push(label));
  // Three clients' 20 kB queries (4 windows each) arrive first, then a short query.
  const long = [1, 2, 3].flatMap((q) =>
    client
      .embedBatches(
        Array.from({ length: 4 }, (_, w) => [`long ${q} window ${w}`]),
        true,
      )
      .map((promise, w) => track(`long ${q}.${w}`, promise)),
  );
  const short = track('short', client.embed(['short query'], true));
  await Promise.all([...long, short]);
  // Before, it took its turn behind every long query that was waiting (answered 5th of 13), on a worker
  // that had to end a long window first; now only a window already computing can end before it.
  assert.ok(answered.indexOf('short') <= 1, `answered in the order ${answered.join(', ')}`);
  assert.equal(mostWorkersOnLong, 1);
  // The long queries still all finish, each window once.
  assert.equal(answered.length, 13);
});

/** A pool of `workers` stand-in workers that records, per worker, the texts sent and the most jobs held. */
function recordingClient(workers: number, delayMs: number) {
  const sent: string[][] = [];
  const mostHeld: number[] = [];
  const client = new OfflineModelClient({
    workers,
    encode: encodeCodePoints,
    startWorker: () => {
      const index = sent.length;
      sent.push([]);
      mostHeld.push(0);
      let held = 0;
      const worker = startFakeWorker(delayMs);
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message: { tokenIds: Int32Array[] }) => {
        sent[index]!.push(...message.tokenIds.map(decodeCodePoints));
        mostHeld[index] = Math.max(mostHeld[index]!, ++held);
        post(
          message,
          message.tokenIds.map((ids) => ids.buffer as ArrayBuffer),
        );
      };
      worker.on('message', () => {
        held -= 1;
      });
      return worker;
    },
  });
  return { client, sent, mostHeld };
}

test('each worker holds the bulk job it computes and the next one, never more, and all workers share a call', async () => {
  const { client, sent, mostHeld } = recordingClient(2, 15);
  const batches = Array.from({ length: 12 }, (_, i) => [`chunk ${String(i).padStart(2, '0')}`]);
  await Promise.all(client.embedBatches(batches, false));
  // Both workers got two jobs at once, before either answered (with one job each, a worker waited for
  // this thread to see each answer before it got the next); how the rest is shared depends on their speed.
  assert.deepEqual(mostHeld, [2, 2]);
  assert.equal(sent.flat().length, 12);
  assert.ok(
    sent.every((texts) => texts.length >= 2),
    `shared as ${sent.map((t) => t.length).join(' / ')}`,
  );
});

test("a call's bulk jobs leave longest first, and each promise still gets its own texts' vectors", async () => {
  const { client, sent } = recordingClient(1, 5);
  const texts = ['a', 'ccc', 'bb', 'dddd'];
  const vectors = await Promise.all(
    client.embedBatches(
      texts.map((text) => [text]),
      false,
    ),
  );
  assert.deepEqual(sent[0], ['dddd', 'ccc', 'bb', 'a']);
  assert.deepEqual(
    vectors.map(([v]) => v![0]),
    [1, 3, 2, 4],
  );
});

test('close() terminates a worker that does not end its job in time, and its job fails retryably', async () => {
  let stopped = false;
  const client = new OfflineModelClient({
    workers: 1,
    encode: encodeCodePoints,
    closeTimeoutMs: 50,
    startWorker: () => {
      // Hung: it neither answers its job nor heeds close, so only terminate() ends it.
      const hung = new Worker("require('node:worker_threads').parentPort.on('message', () => {});", {
        eval: true,
      });
      hung.once('exit', () => {
        stopped = true;
      });
      return hung;
    },
  });
  const job = client.embed(['never answered'], false);
  const failed = assert.rejects(job, (error: Error & { retryable?: boolean }) => {
    assert.equal(error.retryable, true);
    assert.match(error.message, /stopping/);
    return true;
  });
  await client.close();
  assert.ok(stopped, 'close() resolves once the hung worker is gone');
  await failed;
});
