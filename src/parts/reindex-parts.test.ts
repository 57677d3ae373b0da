import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import BetterSqlite3 from 'better-sqlite3';
import { type ReindexOutput, runReindex } from '../cli/commands/reindex-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { findFreePort } from '../runtime/find-free-port.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { partsCollectionName } from './parts-collection-name.js';
import { createPartsGuard } from './parts-guard.js';
import { PartsIndex } from './parts-index.js';
import { reindexParts } from './reindex-parts.js';

const CHUNKS = 'mem_mythos';
const PARTS = partsCollectionName(CHUNKS);
const DAY = Date.UTC(2026, 11, 1, 12);
let clock = 0;
/** Each message a second after the one before. */
const message = (kind: 'user' | 'self', id: string, text: string) => {
  clock += 1000;
  return { speaker_kind: kind, text, message_id: id, ts: DAY + clock, speaker_name: 'Helen' };
};

/** Runs the real command in-process, capturing what it prints. */
async function reindex(args: { config: string; dryRun?: boolean; json?: boolean; bot?: string }) {
  let out = '';
  let err = '';
  const io: ReindexOutput = {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    isTTY: false,
  };
  const code = await runReindex({ bot: 'mythos', json: true, ...args }, io);
  return { code, out, err, summary: out && args.json !== false ? JSON.parse(out) : undefined };
}

/** A config file for the CLI pointing at the running service's journal and store, as a user's would. */
function writeConfig(service: TestService, storePort: number): string {
  const file = join(service.dir, `memory-pool-${storePort}.yaml`);
  writeFileSync(
    file,
    [
      `dataDir: ${JSON.stringify(service.config.dataDir)}`,
      `store: { embedded: { path: ${JSON.stringify(join(service.dir, 'qdrant'))}, port: ${storePort} } }`,
      `embedding: { provider: hashing, dimensions: ${TEST_DIMENSIONS} }`,
      'bots: { mythos: { selfSpeaker: Mythos, collection: mem_mythos } }',
      '',
    ].join('\n'),
  );
  return file;
}

describe('memory-pool reindex completes the parts index of chunks stored before it', () => {
  let service: TestService;
  let client: QdrantClient;
  let config: string;
  before(async () => {
    service = await startTestService({ bots: [testBot('mythos')] });
    client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    config = writeConfig(service, Number(new URL(service.storeUrl!).port));
    const save = async (source: string, messages: unknown[]) =>
      assert.equal((await service.post('/save', { bot: 'mythos', source, messages })).status, 200);
    await save('discord', [
      message('user', 'd1', 'My sister Anna lives in Lisbon and teaches piano'),
      message('self', 'd2', 'Does Anna play concerts in Lisbon too?'),
      message('user', 'd3', 'Only in summer, at the old cathedral'),
      message('self', 'd4', 'Summer concerts in a cathedral sound lovely'),
    ]);
    await save('api', [
      message('user', 'p1', 'My secret diary code is walrus42'),
      message('self', 'p2', 'I will remember the walrus'),
      message('user', 'p3', 'My cat Miso sleeps on the piano'),
    ]);
    await service.writer.runOnce({ flush: true });
    assert.equal((await service.post('/forget', { bot: 'mythos', message_ids: ['p1'] })).status, 200);
    await service.writer.runOnce({ flush: true });
    // What an older memory-pool left: chunks stored, no parts collection, no parts index recorded.
    await client.deleteCollection(PARTS);
    const db = new BetterSqlite3(join(service.config.dataDir, 'journal.sqlite'));
    db.prepare('DELETE FROM parts_indexes').run();
    db.close();
  });
  after(() => service.close());

  const modes = async () => {
    const recalled = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'Where does Anna live?',
      explain: true,
    });
    assert.equal(recalled.status, 200);
    assert.ok(recalled.json.hits.length > 0);
    return new Set(recalled.json.hits.map((h: { explain: { mode: string } }) => h.explain.mode));
  };
  const scroll = async (collection: string) =>
    (await client.scroll(collection, { limit: 1000, with_payload: true })).points;

  test('before it, recall is chunk-only; a dry run reports the work and writes nothing', async () => {
    assert.deepEqual(await modes(), new Set(['chunk-only']));
    const run = await reindex({ config, dryRun: true });
    assert.equal(run.code, 0, run.err);
    const chunks = (await scroll(CHUNKS)).length;
    assert.ok(chunks >= 2);
    assert.equal(run.summary.chunks, chunks);
    assert.equal(run.summary.reindexed, chunks);
    assert.ok(run.summary.partsWritten >= chunks);
    assert.equal(run.summary.complete, false);
    assert.equal((await client.collectionExists(PARTS)).exists, false, 'no parts collection was created');
    assert.deepEqual(await modes(), new Set(['chunk-only']));
  });

  test('it builds parts for every stored chunk, none for a forgotten message, and recall turns hybrid', async () => {
    const run = await reindex({ config });
    assert.equal(run.code, 0, run.err);
    assert.equal(run.summary.complete, true);
    const chunks = await scroll(CHUNKS);
    assert.equal(run.summary.reindexed, chunks.length);
    const parts = await scroll(PARTS);
    assert.equal(parts.length, run.summary.partsWritten);
    for (const chunk of chunks) {
      const covered = new Set(
        parts
          .filter((p) => p.payload!.chunkId === chunk.id)
          .flatMap((p) => String(p.payload!.messageIds).split(',')),
      );
      assert.deepEqual([...covered].sort(), String(chunk.payload!.messageIds).split(',').sort());
    }
    const held = parts.flatMap((p) => String(p.payload!.messageIds).split(','));
    assert.ok(held.includes('p2') && !held.includes('p1'), 'the forgotten message has no part');
    assert.ok(parts.every((p) => !String(p.payload!.text).includes('walrus42')));
    assert.deepEqual(await modes(), new Set(['hybrid']));
  });

  test('a second run changes nothing', async () => {
    const before = await scroll(PARTS);
    const run = await reindex({ config });
    assert.equal(run.code, 0, run.err);
    assert.equal(run.summary.partsWritten, 0);
    assert.equal(run.summary.upToDate, run.summary.chunks);
    assert.deepEqual(await scroll(PARTS), before);
  });

  test('a human summary without --json, and clear refusals', async () => {
    const human = await reindex({ config, json: false, dryRun: true });
    assert.match(human.out, /stored chunks, \d+ already had their parts/);
    const unknown = await reindex({ config, bot: 'nobody' });
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /--bot nobody is not a bot of this config \(bots: mythos\)/);
    const down = await reindex({ config: writeConfig(service, await findFreePort()) });
    assert.equal(down.code, 1);
    assert.match(down.err, /cannot reach the store at http:\/\/127\.0\.0\.1:\d+ .*start it with this config/);
  });
});

test('a forget that lands while reindex writes a chunk leaves no part of the forgotten message', async () => {
  const service = await startTestService({ bots: [testBot('mythos')] });
  const journal = openSqliteJournal(service.config.dataDir);
  try {
    await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        message('user', 'r1', 'My locker code is 4412'),
        message('self', 'r2', 'Noted, locker 4412'),
        message('user', 'r3', 'And my bike is blue'),
      ],
    });
    await service.writer.runOnce({ flush: true });
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    await client.deleteCollection(PARTS);
    const store = createQdrantPointStore({ url: service.storeUrl! });
    let raced = false;
    // The journal was read before the forget; the upsert lands after serve deleted and rewrote the chunk's parts.
    const racing = withStoreHooks(store, {
      beforeCall: async ({ method }) => {
        if (method !== 'upsertHybridPoints' || raced) return;
        raced = true;
        const forgot = await service.post('/forget', { bot: 'mythos', message_ids: ['r1'] });
        assert.equal(forgot.status, 200);
        await service.writer.runOnce({ flush: true });
      },
    });
    const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
    const guard = createPartsGuard(racing, journal);
    const parts = new PartsIndex({ bots: service.config.bots, journal, store: racing, embedder, guard });
    const summary = await reindexParts({ config: service.config, journal, store: racing, parts }, 'mythos');
    assert.ok(raced, 'the forget raced with the write');
    assert.equal(summary.unsettled, 0);
    const held = (await client.scroll(PARTS, { limit: 100, with_payload: true })).points.flatMap((p) =>
      String(p.payload!.messageIds).split(','),
    );
    assert.ok(held.includes('r2') && !held.includes('r1'), `parts hold ${held.join(' ')}`);
  } finally {
    await journal.close();
    await service.close();
  }
});
