/**
 * @module USE-lite on ONNX Runtime against USE-lite on TensorFlow.js (whose vectors offline-embedder.test.ts
 * pins, bit for bit, to the package's own EmbeddingsModel.embed): the same model, up to float rounding.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger } from '../../logging/logger.js';
import { checkEmbedder } from '../../maintenance/doctor-checks.js';
import { WindowedEmbedder } from '../windowed-embedder.js';
import { startModelWorker } from './model-worker.js';
import { OfflineEmbedder } from './offline-embedder.js';
import { OfflineModelClient } from './offline-model-client.js';
import { countUseLiteTokens } from './use-lite-token-counter.js';

/** Where onnxruntime-node has no binary (Intel macOS, musl), the service runs on TensorFlow.js: skip, not fail. */
const noOnnxRuntime = await import('onnxruntime-node').then(
  () => false,
  () => 'onnxruntime-node does not load on this platform (the offline model runs on TensorFlow.js)',
);

const WORDS = (
  'harbour rain Lisbon lighthouse cardamom marathon garden night train letter café naïve Ångström 東京の雨 ' +
  'Ελληνικά 🌈💛 👩‍👩‍👧 👍🏽 ＦＵＬＬＷＩＤＴＨ ﬁnal I didn\'t know! 42 2024-01-01 e-mail ... — "quoted" [09:00]'
).split(' ');

/** A deterministic spread of texts: empty, one word, chat lines, unicode, and past USE-lite's 128 tokens. */
function variedTexts(count: number): string[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const lengths = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 60, 127, 128, 129, 200, 400];
  return Array.from({ length: count }, (_, i) => {
    const words = lengths[i % lengths.length]!;
    const text = Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
    return i % 5 === 0 ? `Anna: ${text}\nBen: ${text.split(' ').reverse().join(' ')}` : text;
  });
}

function compare(onnx: Float32Array, tfjs: Float32Array): { cosine: number; maxDiff: number } {
  let dot = 0;
  let a = 0;
  let b = 0;
  let maxDiff = 0;
  for (let i = 0; i < onnx.length; i++) {
    dot += onnx[i]! * tfjs[i]!;
    a += onnx[i]! ** 2;
    b += tfjs[i]! ** 2;
    maxDiff = Math.max(maxDiff, Math.abs(onnx[i]! - tfjs[i]!));
  }
  return { cosine: dot / Math.sqrt(a * b), maxDiff };
}

test('USE-lite on ONNX Runtime gives the TensorFlow.js vectors (cosine >= 0.99999, no entry off by 1e-4) for 240 varied texts', {
  skip: noOnnxRuntime,
}, async () => {
  const onnx = new OfflineModelClient({ workers: 1, runtime: 'onnxruntime' });
  const tfjs = new OfflineModelClient({ workers: 1, runtime: 'tfjs' });
  const texts = variedTexts(240);
  assert.ok(
    texts.some((text) => countUseLiteTokens(text) > 128),
    'some texts are clipped',
  );
  assert.ok(texts.includes(''));
  // Batches of 8 mixed lengths: a text's vector must not depend on the padding its batch-mates bring.
  const batches = Array.from({ length: texts.length / 8 }, (_, i) => texts.slice(i * 8, i * 8 + 8));
  const [fromOnnx, fromTfjs] = await Promise.all([
    Promise.all(onnx.embedBatches(batches, false)),
    Promise.all(tfjs.embedBatches(batches, false)),
  ]);
  assert.deepEqual(onnx.runtime, { runtime: 'onnxruntime' });
  assert.deepEqual(tfjs.runtime, { runtime: 'tfjs' });
  let worst = { cosine: 1, maxDiff: 0 };
  for (const [b, vectors] of fromOnnx.entries()) {
    for (const [i, vector] of vectors.entries()) {
      const { cosine, maxDiff } = compare(vector, fromTfjs[b]![i]!);
      worst = { cosine: Math.min(worst.cosine, cosine), maxDiff: Math.max(worst.maxDiff, maxDiff) };
    }
  }
  assert.ok(worst.cosine >= 0.99999 && worst.maxDiff <= 1e-4, JSON.stringify(worst));
  // Alone, a text gets the vector it gets in a batch (one text per job is the pool's default).
  const [alone] = await onnx.embed([texts[13]!], false);
  assert.ok(compare(alone!, fromTfjs[1]![5]!).maxDiff <= 1e-4);
});

test('an empty text alone, which TensorFlow.js refuses, gets on ONNX Runtime the vector an empty text gets in a batch', {
  skip: noOnnxRuntime,
}, async () => {
  const onnx = new OfflineModelClient({ workers: 1, runtime: 'onnxruntime' });
  const tfjs = new OfflineModelClient({ workers: 1, runtime: 'tfjs' });
  const [empty] = await onnx.embed([''], false);
  // First in its batch: TensorFlow.js sizes the batch by the last text with a token, so a trailing empty
  // text gets no vector there at all.
  const [emptyBesideOthers] = await tfjs.embed(['', 'cat'], false);
  const { cosine, maxDiff } = compare(empty!, emptyBesideOthers!);
  assert.ok(cosine >= 0.99999 && maxDiff <= 1e-4, JSON.stringify({ cosine, maxDiff }));
});

test('the offline embedder says once which runtime computes the model', { skip: noOnnxRuntime }, async () => {
  const lines: { runtime?: string; msg: string }[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = createLogger({ format: 'json', level: 'info', destination });
  const embedder = new OfflineEmbedder({ logger, client: new OfflineModelClient({ workers: 1 }) });
  await embedder.embed(['the harbour at dawn']);
  await embedder.embed(['the night train']);
  const said = lines.filter((line) => line.runtime !== undefined).map((line) => [line.runtime, line.msg]);
  assert.deepEqual(said, [['onnxruntime', 'offline embedding model runs on onnxruntime']]);
});

test('where onnxruntime-node cannot load, the workers compute with TensorFlow.js and say why; forced, they fail', async () => {
  const missing = new URL('./no-such-onnxruntime.js', import.meta.url).href;
  const fallback = new OfflineModelClient({
    workers: 1,
    startWorker: () => startModelWorker('auto', missing),
  });
  const [vector] = await fallback.embed(['the night train'], false);
  assert.equal(vector?.length, 512);
  assert.equal(fallback.runtime?.runtime, 'tfjs');
  assert.match(fallback.runtime?.reason ?? '', /no-such-onnxruntime/);
  assert.match(new OfflineEmbedder({ client: fallback }).runtime ?? '', /^tfjs \(.*no-such-onnxruntime/);
  const forced = new OfflineModelClient({
    workers: 1,
    startWorker: () => startModelWorker('onnxruntime', missing),
  });
  await assert.rejects(forced.embed(['the night train'], false), /no-such-onnxruntime/);
});

test('memory-pool doctor says which runtime computes the offline model, through the decorators around it', {
  skip: noOnnxRuntime,
}, async () => {
  const embedder = new WindowedEmbedder(
    new OfflineEmbedder({ client: new OfflineModelClient({ workers: 1 }) }),
  );
  assert.equal(embedder.runtime, undefined, 'unknown before the model loads');
  const { check } = await checkEmbedder(embedder);
  assert.equal(check.detail, 'offline:use-lite-512 returns 512-dimensional vectors (on onnxruntime)');
});
