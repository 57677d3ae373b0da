/** @module Tests for the distilled embedder and its shipped table. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { OfflineEmbedder } from '../offline/offline-embedder.js';
import { describeEmbedderContract } from '../test-support/embedder-contract.js';
import { DistilledEmbedder } from './distilled-embedder.js';
import { loadStaticTable, SHIPPED_TABLE } from './static-table.js';

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

describeEmbedderContract('distilled', async () => ({ embedder: new DistilledEmbedder() }));

test('the shipped table is the one scripts/distill-use-lite.mjs wrote: its SHA-256 is pinned', () => {
  const file = readFileSync(SHIPPED_TABLE.url);
  assert.equal(createHash('sha256').update(file).digest('hex'), SHIPPED_TABLE.sha256);
  const table = loadStaticTable(SHIPPED_TABLE.url, SHIPPED_TABLE.sha256);
  // One row per USE-lite vocabulary piece, as many columns as the embedder reports; a few MB at most.
  assert.equal(table.rows, 8000);
  assert.equal(table.dims, new DistilledEmbedder().dimensions);
  assert.ok(file.length < 4_000_000, `${file.length} bytes`);
});

test('a damaged table is refused with an error naming the file and the fix, never read into vectors', () => {
  const file = readFileSync(SHIPPED_TABLE.url);
  file[1000] = file[1000]! ^ 0xff;
  const copy = join(mkdtempSync(join(tmpdir(), 'memory-pool-distilled-')), 'table.bin');
  writeFileSync(copy, file);
  assert.throws(
    () => loadStaticTable(pathToFileURL(copy), SHIPPED_TABLE.sha256),
    (error: unknown) => {
      assert.ok(isMemoryPoolError(error));
      assert.equal(error.code, 'embedding_failed');
      assert.equal(error.retryable, false);
      assert.ok(error.message.includes(copy), error.message);
      assert.match(error.message, /re-run scripts\/distill-use-lite\.mjs/);
      return true;
    },
  );
});

test('distilled vectors rank a paraphrase above an unrelated sentence and are unit length', async () => {
  const [query, paraphrase, unrelated] = await new DistilledEmbedder().embed([
    'My cat loves sleeping on the warm windowsill.',
    'The kitten enjoys napping by the sunny window.',
    'Interest rates rose sharply at the central bank meeting.',
  ]);
  for (const vector of [query!, paraphrase!, unrelated!]) assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-5);
  assert.ok(dot(query!, paraphrase!) > dot(query!, unrelated!) + 0.1);
});

test('an empty text still gets a unit vector (a zero vector has no cosine)', () => {
  const vector = new DistilledEmbedder().embedOne('');
  assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-5);
});

test('the distilled model records a name of its own, so USE-lite collections refuse it and back', () => {
  const distilled = new DistilledEmbedder();
  assert.equal(distilled.model, 'distilled:use-lite-static-256-v1');
  assert.notEqual(distilled.model, new OfflineEmbedder().model);
  // Reads any length: a sum of rows has no window to overflow, so nothing is split or cut.
  assert.equal(distilled.inputWindow.maxTokens, Number.POSITIVE_INFINITY);
  assert.equal(distilled.inputWindow.countTokens('cat cat cat'), 3);
});

test('a long batch lets the event loop in while it embeds, and stops there when its signal aborts', async () => {
  const embedder = new DistilledEmbedder();
  // ~1,500 characters each: thousands of them take far longer than one turn of the event loop.
  const chunks = Array.from({ length: 3000 }, (_, i) =>
    `chunk ${i}: the harbour, the rain, the night train. `.repeat(30),
  );
  const controller = new AbortController();
  let ranMeanwhile = false;
  setImmediate(() => {
    ranMeanwhile = true;
    controller.abort(new Error('the client went away'));
  });
  await assert.rejects(embedder.embed(chunks, { signal: controller.signal }), /the client went away/);
  assert.ok(ranMeanwhile);
  await assert.rejects(embedder.embed(['late'], { signal: controller.signal }), /the client went away/);
});
