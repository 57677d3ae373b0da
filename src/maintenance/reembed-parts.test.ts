import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { runDoctor } from '../cli/commands/doctor-command.js';
import { runReembed } from '../cli/commands/reembed-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { restartTestService, storeClientOf } from '../service/test-support/start-service-on-test-store.js';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { createQdrantStoreAdmin } from '../store/qdrant/qdrant-store-admin.js';
import { type StoreHooks, withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { reembedCollection } from './reembed-collection.js';
import { reembedTargetName } from './reembed-target.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from '../cli/commands/test-support/data-tool-fixture.js';
import { failAfter } from './test-support/data-tool-store.js';

/**
 * The model the bot already uses, rebuilt into a new collection: the same vectors, so recall must give the
 * same memories; what differs is only that every chunk and part was written again by the reembed.
 */
const SAME = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
const EMBEDDING = `{"provider":"hashing","dimensions":${TEST_DIMENSIONS}}`;
const QUERIES = [
  'my sister Anna teaches piano in Lisbon',
  'the grey cat from the shelter',
  'the lighthouse keeper',
];
/** Messages enough for more chunks than one parts batch (32) holds. */
const MESSAGES = 90;

describe('a reembed carries the parts index recall needs', () => {
  let service: TestService;
  /** The service answering now: `service` started again on its folder after the CLI ran without it. */
  let live: TestService;
  let client: QdrantClient;
  let collection: string;
  let target: string;
  let config: string;
  let journal: Journal;

  /** The hits of each query as `/retrieve` explains them: their mode and the messages they hold. */
  const recall = async () =>
    Promise.all(
      QUERIES.map(async (query) => {
        const response = await live.post('/retrieve', { bot: 'mythos', query_text: query, explain: true });
        assert.equal(response.status, 200);
        const hits = response.json.hits as { messageIds: string; explain: { mode: string } }[];
        return {
          modes: [...new Set(hits.map((h) => h.explain.mode))],
          messages: hits.flatMap((h) => h.messageIds.split(',')).sort(),
        };
      }),
    );
  const cli = async (extra: { to?: string; rollback?: boolean; dropOld?: boolean; dryRun?: boolean }) => {
    const io = captureOutput();
    const code = await runReembed({ bot: 'mythos', config, json: true, ...extra }, io);
    const { out, err } = io.text();
    return { code, err, summary: out ? JSON.parse(out) : undefined };
  };
  /** The build as the command runs it, on a store that may fail on cue, with a short settle time. */
  const build = (hooks: StoreHooks = {}) => {
    const { apiKey } = service.config.store;
    const options = { url: live.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    return reembedCollection(
      {
        store: withStoreHooks(createQdrantPointStore(options), hooks),
        admin: createQdrantStoreAdmin(options),
        journal,
        embedder: SAME,
        embedding: EMBEDDING,
        bots: service.config.bots,
      },
      {
        bot: service.config.bots.mythos!,
        action: 'build',
        dryRun: false,
        serveRunning: true,
        rebuild: true,
        settleMs: 50,
      },
    );
  };
  const restart = async () => {
    live = await restartTestService(service);
    client = storeClientOf(live);
  };
  const partsOf = async (name: string) => (await client.count(partsCollectionName(name))).count;

  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    live = service;
    const messages = Array.from({ length: MESSAGES }, (_, i) => ({
      speaker_kind: i % 2 === 0 ? 'user' : 'self',
      text: `Evening ${i}: the lighthouse keeper rowed out past the harbour wall with a lantern and a net`,
      message_id: `k${i}`,
      ts: Date.UTC(2026, 10, 5) + i * 60_000,
    }));
    assert.equal((await service.post('/save', { bot: 'mythos', source: 'discord', messages })).status, 200);
    await service.writer.runOnce({ flush: true });
    config = await writeDataToolConfig(service.dir, 'parts', { service });
    target = reembedTargetName(collection, SAME.model, TEST_DIMENSIONS);
    journal = openSqliteJournal(service.config.dataDir);
    writeFileSync(join(service.dir, 'new.yaml'), 'embedding: { provider: hashing, dimensions: 32 }\n');
  });
  after(async () => {
    await journal.close();
    if (live !== service) await live.stop();
    await service.close();
  });

  test('before any reembed, recall is hybrid', async () => {
    for (const answer of await recall()) assert.deepEqual(answer.modes, ['hybrid']);
  });

  test('--dry-run counts the parts it would build, and builds none', async () => {
    const dry = await cli({ to: join(service.dir, 'new.yaml'), dryRun: true });
    assert.equal(dry.code, 0, dry.err);
    const counted = dry.summary;
    const stored = (await journal.chunks.storedChunks('mythos')).length;
    assert.ok(stored > 32, `${stored} chunks: more than one parts batch`);
    assert.equal(counted.parts.chunks, stored);
    assert.equal(counted.parts.built, stored, 'every chunk would get its parts');
    assert.equal(counted.parts.parts, await partsOf(collection), 'as many parts as the write path built');
    const other = reembedTargetName(collection, new HashingEmbedder({ dimensions: 32 }).model, 32);
    assert.equal((await client.collectionExists(partsCollectionName(other))).exists, false);
  });

  test('a build stopped in its parts pass does not switch; the next run resumes it', async () => {
    await assert.rejects(build(failAfter('upsertHybridPoints', 1)), /the store went away/);
    assert.equal(
      await journal.routes.activeCollection(collection),
      collection,
      'still on the old collection',
    );
    assert.equal(await journal.partsIndexes.isComplete(target), false);
    const written = await partsOf(target);
    assert.ok(written > 0, 'one batch of parts reached the new parts index');

    // Serve rewrites a chunk (an edit) while the parts pass runs and does not store it in time.
    let edited = false;
    const editing: StoreHooks = {
      beforeCall: async (call) => {
        if (call.method !== 'upsertHybridPoints' || edited) return;
        edited = true;
        const [first] = call.args[1] as { payload: { chunkId: string } }[];
        const [message] = await journal.chunks.chunkMessages(first!.payload.chunkId);
        await journal.recordMessages([{ ...message!, text: `${message!.text} (edited)` }], Date.now());
      },
    };
    const refused = await build(editing);
    assert.equal(refused.switched, false, 'a half-built parts index does not go live');
    assert.match(
      refused.pending ?? '',
      /parts index .* is half-built .* chunk-only: run the same command again/,
    );
    assert.ok(refused.parts!.upToDate > 0, 'what the stopped run built was kept, not embedded again');
    assert.equal(await journal.routes.activeCollection(collection), collection);
    assert.equal(await journal.partsIndexes.isComplete(target), false);
  });

  test('/retrieve answers in the same mode with the same memories right after the switch', async () => {
    await service.writer.runOnce({ flush: true });
    const before = await recall();
    const switched = await build();
    assert.equal(switched.switched, true, switched.pending);
    assert.equal(await journal.routes.activeCollection(collection), target);
    assert.deepEqual(await recall(), before);
    const io = captureOutput();
    await runDoctor({ config }, io);
    assert.match(
      io.text().out,
      new RegExp(`pass {2}bot mythos: recall mode: hybrid: passages from ${target}__parts`),
    );
  });

  test('after --rollback, the old collection’s parts serve again, without what was forgotten since', async () => {
    // One message of a chunk (the chunk is rewritten) and a whole chunk (it is gone from the journal).
    assert.equal((await live.post('/forget', { bot: 'mythos', message_ids: ['k3'] })).status, 200);
    assert.equal((await live.post('/forget', { bot: 'mythos', source: 'hermes' })).status, 200);
    await live.writer.runOnce({ flush: true });
    const before = await recall();
    await live.stop();
    const rolled = await cli({ rollback: true });
    assert.equal(rolled.code, 0, rolled.err);
    assert.ok(rolled.summary.parts.deleted > 0, 'the parts of the chunk forgotten whole were deleted');
    await restart();
    assert.equal(await journal.routes.activeCollection(collection), collection);
    assert.deepEqual(await recall(), before);
    const parts = await client.scroll(partsCollectionName(collection), { limit: 1000, with_payload: true });
    const held = parts.points.flatMap((p) => String(p.payload?.messageIds).split(','));
    for (const id of ['k3', 'h1', 'h2']) assert.ok(!held.includes(id), `no part holds forgotten ${id}`);
  });

  test('after --drop-old, recall is hybrid and the dropped collection leaves no parts behind', async () => {
    const before = await recall();
    const forward = await build();
    assert.equal(forward.switched, true, forward.pending);
    assert.deepEqual(await recall(), before);
    await live.stop();
    const dropped = await cli({ dropOld: true });
    assert.equal(dropped.code, 0, dropped.err);
    await restart();
    assert.deepEqual(await recall(), before);
    for (const answer of before) assert.deepEqual(answer.modes, ['hybrid']);
    assert.equal((await client.collectionExists(partsCollectionName(collection))).exists, false);
    assert.equal(await journal.partsIndexes.isComplete(collection), undefined);
  });
});
