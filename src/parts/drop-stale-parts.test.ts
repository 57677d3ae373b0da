/** @module Which parts start-up deletes when a collection came back without memory-pool's chunks. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { MemoryMessage } from '../chunking/memory-message.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { dropAllStaleParts } from './drop-stale-parts.js';

let dir: string;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'drop-stale-parts-'));
  journal = openSqliteJournal(dir);
});
afterEach(async () => {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const CHUNK = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

test('only parts of chunks marked stored but missing from the collection go; writes under way keep theirs', async () => {
  const store = createMemoryPointStore();
  await store.createCollection('mem_a', 4);
  await store.createHybridCollection('mem_a__parts', 4);
  await journal.partsIndexes.recordStarted('mem_a', true, Date.now());
  // Chunk 1: stored, then its collection deleted and created again (its point gone).
  // Chunk 2: stored and still there. Chunk 3: parts written, its point not yet (a write under way or a retry).
  for (const n of [1, 2, 3]) {
    const message: MemoryMessage = {
      bot: 'mythos',
      source: 'api',
      messageId: `m${n}`,
      speakerKind: 'user',
      text: `line ${n}`,
      ts: n,
      channelId: `c${n}`,
    };
    await journal.recordMessages([message], Date.now());
    await journal.chunks.planChunk(
      { chunkId: CHUNK(n), bot: 'mythos', collection: 'mem_a', source: 'api', messageIds: [`m${n}`] },
      Date.now(),
    );
    await store.upsertHybridPoints('mem_a__parts', [
      {
        id: n,
        dense: [1, 0, 0, 0],
        sparse: { indices: [n], values: [1] },
        payload: { chunkId: CHUNK(n), text: `part ${n}` },
      },
    ]);
  }
  for (const n of [1, 2]) await journal.chunks.markChunkStored(CHUNK(n), 0, Date.now());
  await store.upsertPoints('mem_a', [{ id: CHUNK(2), vector: [1, 0, 0, 0], payload: { source: 'api' } }]);
  assert.deepEqual(await dropAllStaleParts(store, journal, ['mem_a']), ['mem_a']);
  assert.deepEqual(
    store
      .heldPoints('mem_a__parts')
      .map((p) => p.payload.text)
      .sort(),
    ['part 2', 'part 3'],
  );
  assert.equal(await journal.partsIndexes.isComplete('mem_a'), true, 'the rest of the index is still whole');
});
