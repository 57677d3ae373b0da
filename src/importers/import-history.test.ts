import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { StoreError } from '../errors/memory-pool-error.js';
import { createLogger } from '../logging/logger.js';
import { startServiceOnTestStore } from '../service/test-support/start-service-on-test-store.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { withStoreHooks } from '../store/test-support/with-store-hooks.js';
import type { ImportedHistory } from './imported-history.js';
import { type ImportDeps, importHistory } from './import-history.js';

const DAY = Date.UTC(2024, 2, 1, 12);
const history: ImportedHistory = {
  source: 'notes',
  skipped: {},
  notes: [],
  messages: Array.from({ length: 6 }, (_, i) => ({
    origin: `history.jsonl:${i + 1}`,
    message: {
      speaker_kind: i % 2 === 0 ? 'user' : 'self',
      text: `Message ${i} about the harbour, the lighthouse and the long winter evenings there.`,
      message_id: `h${i}`,
      ts: DAY + i * 60_000,
      channel_id: 'journal',
    },
  })),
};

describe('importHistory', () => {
  let service: TestService;
  let deps: ImportDeps;
  let collection: string;
  before(async () => {
    ({ service, collection } = await startServiceOnTestStore(testBot('mythos')));
    await service.writer.stop(); // only the import writes chunks here
    deps = {
      config: service.config,
      journal: (await import('../journal/sqlite/sqlite-journal.js')).openSqliteJournal(
        service.config.dataDir,
      ),
      store: createQdrantPointStore({
        url: service.storeUrl!,
        ...(service.config.store.apiKey ? { apiKey: service.config.store.apiKey } : {}),
      }),
      embedder: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }),
      logger: createLogger({ level: 'silent' }),
    };
  });
  after(async () => {
    await deps.journal.close();
    await service.close();
  });

  test('a store that fails leaves the messages journaled and waiting; the next run stores them and adds nothing', async () => {
    // A live conversation of serve's that is not idle yet must not count as the import's unfinished work.
    const live = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [{ speaker_kind: 'user', text: 'still typing…', message_id: 'live-1', channel_id: 'c1' }],
    });
    assert.equal(live.status, 200);
    const failing = withStoreHooks(deps.store, {
      beforeCall: ({ method }) => {
        if (method === 'upsertPoints')
          throw new StoreError('store_unavailable', 'the store is down', { retryable: true });
      },
    });
    const failed = await importHistory({ ...deps, store: failing }, 'mythos', history, {
      dryRun: false,
      skipKnownToSillyTavern: false,
    });
    assert.equal(failed.accepted, 6);
    assert.equal(failed.chunksWritten, 0);
    assert.equal(failed.pendingMessages, 6);

    const resumed = await importHistory(deps, 'mythos', history, {
      dryRun: false,
      skipKnownToSillyTavern: false,
    });
    assert.equal(resumed.accepted, 0);
    assert.equal(resumed.duplicates, 6);
    assert.equal(resumed.pendingMessages, 0);
    assert.ok(resumed.chunksWritten > 0);
    const stored = await deps.store.scrollPoints(collection, { limit: 100 });
    const ids = stored.points.flatMap((p) => String(p.payload.messageIds).split(','));
    assert.deepEqual(ids.sort(), ['h0', 'h1', 'h2', 'h3', 'h4', 'h5']);
    assert.equal(
      await deps.journal.unstoredInConversation('mythos', 'discord\u0000c1'),
      1,
      'serve’s live message still waits',
    );
  });

  test('an import that creates a deleted collection again first deletes the parts holding its deleted text', async () => {
    const parts = `${collection}__parts`;
    const before = await deps.store.scrollPoints(parts, { limit: 100 });
    assert.ok(before.points.length > 0, 'the first import wrote parts');
    await deps.store.deleteCollection(collection); // SillyTavern's "Delete All Memories"; serve never saw it
    const later: ImportedHistory = {
      ...history,
      messages: history.messages.map(({ origin, message }, i) => ({
        origin,
        message: {
          ...message,
          message_id: `later${i}`,
          text: `Later line ${i} about the garden and the apple trees.`,
        },
      })),
    };
    const imported = await importHistory(deps, 'mythos', later, {
      dryRun: false,
      skipKnownToSillyTavern: false,
    });
    assert.ok(imported.chunksWritten > 0);
    const left = await deps.store.scrollPoints(parts, { limit: 100 });
    assert.deepEqual(
      left.points.filter((part) => String(part.payload.text).includes('harbour')),
      [],
      'no part keeps the deleted text',
    );
    assert.equal(
      await deps.journal.partsIndexes.isComplete(collection),
      true,
      'the new parts cover the new collection',
    );
  });

  test('a collection the import creates gets the timeline index, so the viewer lists it newest first, and the index on source recall filters by', async () => {
    await deps.store.deleteCollection(collection);
    const another: ImportedHistory = {
      ...history,
      messages: history.messages.map(({ origin, message }, i) => ({
        origin,
        message: { ...message, message_id: `fresh${i}`, text: `Fresh line ${i} about the ferry timetable.` },
      })),
    };
    await importHistory(deps, 'mythos', another, { dryRun: false, skipKnownToSillyTavern: false });
    const shape = await deps.store.describeCollection(collection);
    assert.equal(shape?.payloadIndexes?.['timestamp'], 'float');
    assert.equal(shape?.payloadIndexes?.['source'], 'keyword', 'recall finds SillyTavern chunks by it');
    const newestFirst = await deps.store.scrollOrdered(collection, {
      key: 'timestamp',
      direction: 'desc',
      limit: 1,
    });
    assert.equal(newestFirst.length, 1, 'the timeline can order by timestamp');
  });
});
