/** @module Recall asks the store what needs no vector while the model embeds the query, and the rest after. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import type { Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createPartsGuard } from '../parts/parts-guard.js';
import { encodeDocumentTerms } from '../parts/sparse-vector.js';
import { tokenizeText } from '../parts/tokenize-text.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { withStoreHooks } from '../store/test-support/with-store-hooks.js';
import type { RetrieveResponse } from '../wire/retrieve-request.js';
import { retrieveMemories } from './retrieve-memories.js';

const CHUNK = '0b6c1c9e-6a43-4d57-9e1b-6d0f1f6b0001';
const PART = '0b6c1c9e-6a43-4d57-9e1b-6d0f1f6b0002';
const TEXT = 'Helen: My brother Tomas adopted a greyhound called Pixel.';
const hashing = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });

/**
 * One memory-pool chunk and its part, stored; `recall` runs one recall with `embed` as the query embedder and
 * names the store calls it made, each `before` or `after` the vector came.
 */
async function withOneChunk(
  run: (
    recall: (embed: Embedder['embed']) => {
      calls: string[];
      recalled: Promise<RetrieveResponse>;
    },
  ) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'early-recall-'));
  const journal = openSqliteJournal(dir);
  try {
    const vector = Array.from((await hashing.embed([TEXT]))[0]!);
    const base = createMemoryPointStore();
    await base.createCollection('mem_mythos', TEST_DIMENSIONS);
    await base.createHybridCollection('mem_mythos__parts', TEST_DIMENSIONS);
    await journal.partsIndexes.recordStarted('mem_mythos', true, Date.now());
    const payload = { text: `[2026-05-07]\n${TEXT}`, messageIds: 't3', source: 'discord', isChunk: true };
    await base.upsertPoints('mem_mythos', [{ id: CHUNK, vector, payload }]);
    const sparse = encodeDocumentTerms(tokenizeText(TEXT));
    const part = { id: PART, dense: vector, sparse, payload: { chunkId: CHUNK, messageIds: 't3' } };
    await base.upsertHybridPoints('mem_mythos__parts', [part]);
    await run((embed) => {
      let embedded = false;
      const calls: string[] = [];
      const store = withStoreHooks(base, {
        beforeCall: ({ method, args }) => {
          const using = (args[1] as { using?: string } | undefined)?.using;
          calls.push(`${embedded ? 'after' : 'before'} ${method}${using ? ` ${using}` : ''}`);
        },
      });
      const embedder: Embedder = {
        model: hashing.model,
        dimensions: TEST_DIMENSIONS,
        inputWindow: hashing.inputWindow,
        probe: async () => {},
        embed: async (texts, options) => {
          const vectors = await embed(texts, options);
          embedded = true;
          return vectors;
        },
      };
      const deps = {
        store,
        embedder,
        guard: createCollectionGuard(store, journal),
        partsGuard: createPartsGuard(store, journal),
        forgottenIds: async () => new Set<string>(),
      };
      const request = { bot: 'mythos', query_text: 'What is the name of the greyhound?' };
      return { calls, recalled: retrieveMemories(deps, testBot('mythos'), request) };
    });
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('recall sends the word search and the count of chunks without parts while the model embeds, the rest after', async () => {
  await withOneChunk(async (recall) => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The model, still computing until the test releases it.
    const { calls, recalled } = recall(async (texts) => {
      await gate;
      return hashing.embed(texts);
    });
    const sentEarly = () => calls.includes('before queryPoints bm25') && calls.includes('before countPoints');
    for (let turns = 0; turns < 1000 && !sentEarly(); turns++) await new Promise((r) => setImmediate(r));
    assert.ok(sentEarly(), `sent before the vector: ${calls.join(', ')}`);
    release();
    const { hits } = await recalled;
    assert.deepEqual(
      hits.map((hit) => hit.id),
      [CHUNK],
    );
    // No chunk without parts: the chunk search (a filter test of every chunk) is not sent at all; the hit's
    // chunk is read by id.
    const after = calls.filter((call) => call.startsWith('after'));
    assert.deepEqual(after, ['after queryPoints dense', 'after retrievePoints']);
  });
});

test('a vector that came before the checks ended (a repeated query) is searched at once: no count first', async () => {
  await withOneChunk(async (recall) => {
    const { calls, recalled } = recall((texts) => hashing.embed(texts));
    const { hits } = await recalled;
    assert.deepEqual(
      hits.map((hit) => hit.id),
      [CHUNK],
    );
    assert.ok(!calls.some((call) => call.endsWith('countPoints')), calls.join(', '));
    assert.ok(calls.includes('after searchPoints'), calls.join(', '));
  });
});
