/**
 * @module An ONNX Runtime that loads but fails (or computes nonsense) when it runs: the worker's probe run
 * catches it at load and falls back to TensorFlow.js; run errors after a good probe move the worker over.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { createLogger } from '../../logging/logger.js';
import { startModelWorker } from './model-worker.js';
import { OfflineEmbedder } from './offline-embedder.js';
import { OfflineModelClient } from './offline-model-client.js';
import { ONNX_PROBE_TEXTS } from './onnx-worker-source.js';

/** Where onnxruntime-node has no binary (Intel macOS, musl), the service runs on TensorFlow.js: skip, not fail. */
const noOnnxRuntime = await import('onnxruntime-node').then(
  () => false,
  () => 'onnxruntime-node does not load on this platform (the offline model runs on TensorFlow.js)',
);

/**
 * A stand-in onnxruntime-node whose session loads and whose run calls `answer(rows, call)` (call counts
 * from 1) for each row's 512 values; `answer` throws to fail the run.
 */
function fakeOnnxRuntime(answer: string): string {
  const source = `
    let calls = 0;
    const answer = ${answer};
    export class Tensor { constructor(type, data, dims) { this.type = type; this.data = data; this.dims = dims; } }
    export const InferenceSession = { create: async () => ({
      release: async () => {},
      run: async ({ ids }) => {
        calls += 1;
        const rows = ids.dims[0];
        const data = new Float32Array(rows * 512);
        for (let row = 0; row < rows; row++) data.set(answer(row, calls), row * 512);
        return { embedding: { data, dims: [rows, 512] } };
      },
    }) };`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

/** A unit vector along axis `row`: what a sane model gives unalike texts, up to rotation. */
const AXIS = '(row) => { const v = new Float32Array(512); v[row] = 1; return v; }';

function clientOn(ort: string, runtime: 'auto' | 'onnxruntime' = 'auto'): OfflineModelClient {
  return new OfflineModelClient({ workers: 1, startWorker: () => startModelWorker(runtime, ort) });
}

for (const [what, answer, why] of [
  [
    'fails every run',
    "() => { throw new Error('fake ORT: no kernel for this op'); }",
    /no kernel for this op/,
  ],
  ['gives values that are not numbers', '() => new Float32Array(512).fill(NaN)', /not a finite number/],
  ['gives vectors that are not of unit length', '() => new Float32Array(512).fill(1)', /norm/],
  ['gives every text the same vector', '() => new Float32Array(512).fill(Math.sqrt(1 / 512))', /same vector/],
] as const) {
  test(`an ONNX Runtime that loads but ${what} fails its probe: the worker computes with TensorFlow.js and says why`, async () => {
    const client = clientOn(fakeOnnxRuntime(answer));
    const [vector] = await client.embed(['the night train'], false);
    assert.equal(vector?.length, 512);
    assert.equal(client.runtime?.runtime, 'tfjs');
    assert.match(client.runtime?.reason ?? '', /failed its probe run/);
    assert.match(client.runtime?.reason ?? '', why);
  });
}

test('forced onto an ONNX Runtime that fails its probe, the jobs fail (no fallback) and say why', async () => {
  const forced = clientOn(
    fakeOnnxRuntime("() => { throw new Error('fake ORT: bad_alloc'); }"),
    'onnxruntime',
  );
  await assert.rejects(forced.embed(['the night train'], false), /failed its probe run: fake ORT: bad_alloc/);
});

test('an ONNX Runtime that passes its probe, then fails run after run, hands the worker to TensorFlow.js and logs it', async () => {
  // The first run is the probe and the second a job; every later one fails.
  const client = clientOn(
    fakeOnnxRuntime(
      `(row, call) => { if (call > 2) throw new Error('fake ORT: run failed'); return (${AXIS})(row); }`,
    ),
  );
  const lines: { level: number; runtime?: string; reason?: string }[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const embedder = new OfflineEmbedder({
    client,
    logger: createLogger({ format: 'json', level: 'info', destination }),
  });
  await embedder.embed(['first']);
  assert.deepEqual(client.runtime, { runtime: 'onnxruntime' });
  const notRetried = (error: unknown) =>
    isMemoryPoolError(error) && error.retryable === false && /fake ORT: run failed/.test(error.message);
  await assert.rejects(embedder.embed(['second']), notRetried);
  await assert.rejects(embedder.embed(['third']), notRetried);
  // The third failure in a row moves the worker, and that job is computed again on TensorFlow.js.
  const [fourth] = await embedder.embed(['fourth']);
  assert.equal(fourth?.length, 512);
  assert.equal(client.runtime?.runtime, 'tfjs');
  assert.match(client.runtime?.reason ?? '', /failed 3 runs in a row \(the last: fake ORT: run failed\)/);
  const [fifth] = await embedder.embed(['fifth']);
  assert.equal(fifth?.length, 512);
  const said = lines.filter((line) => line.runtime !== undefined);
  assert.deepEqual(
    said.map((line) => line.runtime),
    ['onnxruntime', 'tfjs'],
    'the move is logged, once',
  );
  assert.match(said[1]?.reason ?? '', /failed 3 runs in a row/);
});

test('the real ONNX Runtime passes its probe, and gives the probe texts the vectors TensorFlow.js gives', {
  skip: noOnnxRuntime,
}, async () => {
  const onnx = new OfflineModelClient({ workers: 1, runtime: 'auto' });
  const tfjs = new OfflineModelClient({ workers: 1, runtime: 'tfjs' });
  const texts = [...ONNX_PROBE_TEXTS];
  const [fromOnnx, reference] = await Promise.all([onnx.embed(texts, false), tfjs.embed(texts, false)]);
  assert.deepEqual(onnx.runtime, { runtime: 'onnxruntime' }, 'no fallback on a sound ONNX Runtime');
  for (const [i, vector] of fromOnnx.entries()) {
    let cosine = 0;
    for (let d = 0; d < vector.length; d++) cosine += vector[d]! * reference[i]![d]!;
    assert.ok(cosine >= 0.99999, `probe text ${i}: cosine ${cosine} with TensorFlow.js`);
  }
});

test('among mixed workers the pool reports TensorFlow.js, the slow case, whichever worker loaded last', {
  skip: noOnnxRuntime,
}, async () => {
  const broken = fakeOnnxRuntime("() => { throw new Error('fake ORT: run failed'); }");
  let started = 0;
  const client = new OfflineModelClient({
    workers: 1,
    startWorker: () => (++started === 1 ? startModelWorker('auto', broken) : startModelWorker('auto')),
  });
  await client.embed(['the first worker falls back'], false);
  assert.equal(client.runtime?.runtime, 'tfjs');
  client.growTo(2);
  // Two jobs at once: the second starts a worker on the real ONNX Runtime, which loads after the first.
  await Promise.all(client.embedBatches([['the harbour at dawn'], ['the night train']], false));
  assert.equal(started, 2);
  assert.equal(client.runtime?.runtime, 'tfjs');
  assert.match(client.runtime?.reason ?? '', /failed its probe run/);
});
