/**
 * @module Review s24 finding 6: a write that outlives its claim (a slow embedder) never lands forgotten text for
 * good. Two writers (replicas A and B) share one journal and one store; A is killed right after its upsert, the
 * moment that once left the text in the store with nothing recording that it must go.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { testBot } from '../config/test-support/test-bot.js';
import type { Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { type StoreHooks, withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { ChunkWriter } from './chunk-writer.js';

const T0 = 1_764_547_200_000;
const CLAIM_MS = 30_000;
const SECRET = `m1 my secret password is swordfish ${'x'.repeat(40)}`;

/** `journal` as a process sees it that is killed once `dead()` holds: no later call of it ever answers. */
function mortal(journal: Journal, dead: () => boolean): Journal {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, property, receiver) {
        const value = Reflect.get(t, property, receiver);
        if (typeof value === 'function') {
          return (...args: unknown[]) =>
            dead() ? new Promise(() => {}) : (value as (...a: unknown[]) => unknown).apply(t, args);
        }
        return value !== null && typeof value === 'object' ? wrap(value) : value;
      },
    });
  return wrap(journal);
}

/** The hashing embedder, running `afterEmbed` before it answers (a slow model: the clock moves meanwhile). */
function hookedEmbedder(afterEmbed: () => Promise<void>, delayMs = 0): Embedder & { calls: number } {
  const inner = new HashingEmbedder({ dimensions: 16 });
  return {
    model: inner.model,
    dimensions: inner.dimensions,
    inputWindow: inner.inputWindow,
    calls: 0,
    probe: () => inner.probe(),
    async embed(texts, options) {
      this.calls += 1;
      if (delayMs > 0) await sleep(delayMs, undefined, options?.signal ? { signal: options.signal } : {});
      const vectors = await inner.embed(texts);
      await afterEmbed();
      return vectors;
    },
  };
}

describe('a write that outlives its claim', () => {
  let dir: string;
  let journal: Journal;
  let clock: number;
  const shared = createMemoryPointStore();
  const bots = { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chunk-writer-claim-check-'));
    journal = openSqliteJournal(dir);
    clock = T0;
    await shared.deleteCollection('mem_mythos');
    await journal.recordMessages(
      [{ bot: 'mythos', source: 'discord', messageId: 'm1', speakerKind: 'user', text: SECRET, ts: T0 }],
      T0,
    );
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const createWriter = (
    holder: string,
    options: {
      journal?: Journal;
      embedder?: Embedder;
      hooks?: StoreHooks;
      realClock?: boolean;
      claimMs?: number;
    },
  ) => {
    const store = withStoreHooks(shared, options.hooks ?? {});
    const writerJournal = options.journal ?? journal;
    return new ChunkWriter({
      bots,
      journal: writerJournal,
      store,
      embedder: options.embedder ?? new HashingEmbedder({ dimensions: 16 }),
      guard: createCollectionGuard(store, writerJournal),
      metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
      logger: createLogger({ level: 'silent' }),
      now: options.realClock ? Date.now : () => clock,
      holder,
      ...(options.claimMs === undefined ? {} : { claimMs: options.claimMs }),
    });
  };
  /** What a forget on replica B does: the journal step, then the deletes alone on B's writer. */
  const forgetOnB = async (b: ChunkWriter) => {
    await journal.forgetting.forgetMessages('mythos', [{ id: 'm1', source: 'discord' }], clock);
    await b.runExclusive(async (ops) => {
      await journal.chunks.makeDeletionsDue('mythos');
      await ops.deleteDueChunks();
    });
  };
  const upsertsTo = (log: string[]) => ({
    beforeCall: ({ method, args }: { method: string; args: readonly unknown[] }) => {
      if (method === 'upsertPoints' && args[0] === 'mem_mythos') log.push(method);
    },
  });
  const heldTexts = () => shared.heldPoints('mem_mythos').map((p) => String(p.payload.text));

  test('taken over by another writer (which wrote it, then a forget deleted it): the late write upserts nothing', async () => {
    const b = createWriter('B', {});
    const aUpserts: string[] = [];
    const a = createWriter('A', {
      hooks: upsertsTo(aUpserts),
      embedder: hookedEmbedder(async () => {
        // A's model call outlasts the claim; B takes the chunk over, writes it, and the message is forgotten.
        clock = T0 + CLAIM_MS + 1;
        await b.runOnce();
        assert.equal(heldTexts().length, 1, 'B wrote it');
        await forgetOnB(b);
        assert.deepEqual(heldTexts(), []);
      }),
    });
    await a.runOnce({ flush: true });
    assert.deepEqual(aUpserts, [], 'A no longer held the claim: nothing of its write reached the store');
    assert.deepEqual(heldTexts(), []);
  });

  test('a forget right after the claim check (claim renewed): A killed after its upsert, the text still goes', async () => {
    let dead = false;
    const b = createWriter('B', {});
    const a = createWriter('A', {
      journal: mortal(journal, () => dead),
      // The model answers just before the claim would run out; the check renews it.
      embedder: hookedEmbedder(async () => {
        clock = T0 + CLAIM_MS - 1;
      }),
      hooks: {
        beforeCall: async ({ method, args }) => {
          if (method !== 'upsertPoints' || args[0] !== 'mem_mythos') return;
          clock = T0 + CLAIM_MS + 1; // past the claim's first expiry
          await forgetOnB(b);
          dead = true; // killed once this upsert lands: no markChunkStored, no requeue, no release
        },
      },
    });
    void a.runOnce({ flush: true });
    await waitFor(() => dead && heldTexts().length === 1);
    // A's claim runs out; B's writer runs the delete the forget left due.
    clock = T0 + 3 * CLAIM_MS;
    await b.runOnce();
    assert.deepEqual(heldTexts(), [], 'the forgotten text is not left in the store');
  });

  test('a forget right before the claim check (claim expired): A skips the chunk, nothing lands', async () => {
    let dead = false;
    const b = createWriter('B', {});
    const aUpserts: string[] = [];
    const a = createWriter('A', {
      journal: mortal(journal, () => dead),
      embedder: hookedEmbedder(async () => {
        clock = T0 + CLAIM_MS + 1;
        await forgetOnB(b);
      }),
      hooks: {
        beforeCall: ({ method, args }) => {
          if (method !== 'upsertPoints' || args[0] !== 'mem_mythos') return;
          aUpserts.push(method);
          dead = true;
        },
      },
    });
    await Promise.race([a.runOnce({ flush: true }), waitFor(() => dead)]);
    clock = T0 + 3 * CLAIM_MS;
    await b.runOnce();
    assert.deepEqual(aUpserts, [], 'the chunk whose claim A lost was not written');
    assert.deepEqual(heldTexts(), []);
  });

  test('a batch slower than its claim keeps it: renewed, so no other writer takes the chunk meanwhile', async () => {
    const claimMs = 1_000;
    const embedder = hookedEmbedder(async () => {}, 2_500);
    const aUpserts: string[] = [];
    const a = createWriter('A', { embedder, hooks: upsertsTo(aUpserts), realClock: true, claimMs });
    const writing = a.runOnce({ flush: true });
    const takenByB: string[] = [];
    // Past the claim's first expiry (1.3 s), then later still (2 s), while A's model call (2.5 s) runs.
    for (const pause of [1_300, 700]) {
      await sleep(pause);
      const taken = await journal.chunks.claimDueChunks('B', Date.now(), 10, claimMs);
      takenByB.push(...taken.map((c) => c.chunkId));
    }
    await writing;
    assert.deepEqual(takenByB, [], 'A’s claim was live all along');
    assert.deepEqual(aUpserts, ['upsertPoints']);
    assert.equal(heldTexts().length, 1);
  });

  test('a forget’s own rewrite claims its chunks: another writer does not take them while it writes', async () => {
    // One chunk of two messages in a channel of their own: forgetting one rewrites the chunk with the other.
    const said = (id: string, ts: number) => ({
      bot: 'mythos',
      source: 'discord',
      messageId: id,
      speakerKind: 'user' as const,
      text: `${id} said something worth keeping here`,
      ts,
      channelId: 'c9',
    });
    await journal.recordMessages([said('k1', T0 + 1), said('k2', T0 + 2)], T0 + 2);
    await createWriter('A', {}).runOnce({ flush: true });
    const forgot = await journal.forgetting.forgetMessages(
      'mythos',
      [{ id: 'k2', source: 'discord' }],
      clock,
    );
    assert.equal(forgot.pointsRewritten, 1);
    const takenByB: string[] = [];
    const embedder = hookedEmbedder(async () => {
      const taken = await journal.chunks.claimDueChunks('B', clock, 10, CLAIM_MS);
      takenByB.push(...taken.map((c) => c.chunkId));
    });
    await createWriter('A2', { embedder }).runExclusive(async (ops) => {
      await journal.chunks.makeDeletionsDue('mythos');
      await ops.deleteDueChunks();
      await ops.writeChunks(forgot.chunkIds);
    });
    assert.equal(embedder.calls, 1, 'the rewrite was embedded');
    assert.deepEqual(takenByB, [], 'the chunk being rewritten was claimed by the forget');
    assert.ok(heldTexts().some((text) => text.includes('k1 said')));
  });
});

/** Resolves once `condition` holds (polled every 5 ms, for at most 10 s): tests wait on events, not on time. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 10_000) throw new Error('waitFor: the condition never held');
    await sleep(5);
  }
}
