/**
 * @module Review s25 finding 3 without the pipeline: a batch whose texts were read, then moved on by a forget or an
 * edit on another replica before the claim check, is not upserted (the claim is still live: only the revision says
 * so), and the store ends exact. Two writers (replicas A and B) share one journal and one store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import type { Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { ChunkWriter } from './chunk-writer.js';

const T0 = 1_764_547_200_000;
const SECRET = `m1 my secret password is swordfish ${'x'.repeat(40)}`;
const EDITED = `m1 I said nothing about passwords at all ${'y'.repeat(40)}`;

describe('a batch moved on by another replica between its read and its claim check', () => {
  let dir: string;
  let journal: Journal;
  const clock = T0 + 5_000; // fixed: A's claim stays live throughout, so only the revision can stop the write
  const shared = createMemoryPointStore();
  const bots = { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) };
  const said = (text: string) => ({
    bot: 'mythos',
    source: 'discord',
    messageId: 'm1',
    speakerKind: 'user' as const,
    text,
    ts: T0,
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chunk-writer-moved-on-'));
    journal = openSqliteJournal(dir);
    await shared.deleteCollection('mem_mythos');
    await journal.recordMessages([said(SECRET)], T0);
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A replica's writer; `upserted` collects the texts it sends to the chunk collection. */
  const createWriter = (holder: string, embedder?: Embedder, upserted: string[] = []) => {
    const store = withStoreHooks(shared, {
      beforeCall: ({ method, args }) => {
        if (method !== 'upsertPoints' || args[0] !== 'mem_mythos') return;
        for (const point of args[1] as { payload: { text: string } }[]) upserted.push(point.payload.text);
      },
    });
    return new ChunkWriter({
      bots,
      journal,
      store,
      embedder: embedder ?? new HashingEmbedder({ dimensions: 16 }),
      guard: createCollectionGuard(store, journal),
      metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
      logger: createLogger({ level: 'silent' }),
      now: () => clock,
      holder,
    });
  };
  /** The hashing embedder, running `meanwhile` (another replica's work) once, after the first batch was read. */
  const embedderThen = (meanwhile: () => Promise<void>): Embedder => {
    const inner = new HashingEmbedder({ dimensions: 16 });
    let ran = false;
    return {
      model: inner.model,
      dimensions: inner.dimensions,
      inputWindow: inner.inputWindow,
      probe: () => inner.probe(),
      async embed(texts) {
        const vectors = await inner.embed(texts);
        if (!ran) {
          ran = true;
          await meanwhile();
        }
        return vectors;
      },
    };
  };
  const heldTexts = () => shared.heldPoints('mem_mythos').map((p) => String(p.payload.text));

  test('a forget on B: A does not upsert the forgotten text, and the store ends empty', async () => {
    const b = createWriter('B');
    const aUpserted: string[] = [];
    const a = createWriter(
      'A',
      embedderThen(async () => {
        // B's /forget: the journal step, then its deletes alone on B's writer (A's live claim holds them back).
        await journal.forgetting.forgetMessages('mythos', [{ id: 'm1', source: 'discord' }], clock);
        await b.runExclusive(async (ops) => {
          await journal.chunks.makeDeletionsDue('mythos');
          await ops.deleteDueChunks();
        });
      }),
      aUpserted,
    );
    await a.runOnce({ flush: true });
    assert.deepEqual(
      aUpserted.filter((text) => text.includes('swordfish')),
      [],
      'the text read before the forget was not upserted after it',
    );
    await b.runOnce();
    assert.deepEqual(heldTexts(), []);
  });

  test('an edit on B: A does not upsert the old text; the store ends with the edited one only', async () => {
    const aUpserted: string[] = [];
    const a = createWriter(
      'A',
      embedderThen(async () => {
        await journal.recordMessages([said(EDITED)], clock);
      }),
      aUpserted,
    );
    await a.runOnce({ flush: true });
    assert.equal(
      aUpserted.some((text) => text.includes('swordfish')),
      false,
      'the old revision was not upserted',
    );
    await createWriter('B').runOnce({ flush: true });
    const held = heldTexts();
    assert.equal(held.length, 1);
    assert.ok(held[0]!.includes('said nothing about passwords'), held[0]);
    assert.ok(!held[0]!.includes('swordfish'));
  });
});
