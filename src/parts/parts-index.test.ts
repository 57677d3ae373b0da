import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { formatChunk } from '../chunking/chunk-format.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { partsCollectionName } from './parts-collection-name.js';
import { createPartsGuard } from './parts-guard.js';
import { type ChunkToIndex, PartsIndex } from './parts-index.js';

const CHUNKS = 'mem_mythos';
const PARTS = partsCollectionName(CHUNKS);
const DAY = Date.UTC(2026, 11, 1, 12);
let clock = 0;
/** Each message a second after the one before. */
const message = (kind: 'user' | 'self', id: string, text: string, channel: string) => {
  clock += 1000;
  return {
    speaker_kind: kind,
    text,
    message_id: id,
    ts: DAY + clock,
    speaker_name: 'Helen',
    channel_id: channel,
  };
};

// A chunk's parts must match its current version: a version with no parts (its bot left the config, its
// messages were forgotten after the writer read the chunk) leaves none of the old ones, each holding old text.
describe('a chunk written again with no parts keeps none of its old ones', () => {
  let service: TestService;
  let client: QdrantClient;
  let journal: Journal;
  before(async () => {
    service = await startTestService({ bots: [testBot('mythos')] });
    client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    journal = openSqliteJournal(service.config.dataDir);
  });
  after(async () => {
    await journal.close();
    await service.close();
  });

  /** Saves a conversation through /save, lets serve store it (parts first), and answers its chunk as stored. */
  const storeChunk = async (channel: string, texts: readonly string[]): Promise<ChunkToIndex> => {
    const ids = texts.map((_, i) => `${channel}-${i}`);
    const messages = texts.map((text, i) => message(i % 2 === 0 ? 'user' : 'self', ids[i]!, text, channel));
    const saved = await service.post('/save', { bot: 'mythos', source: 'discord', messages });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
    const chunkId = String((await partsHolding(ids[0]!))[0]?.payload?.chunkId);
    const held = await journal.chunks.chunkMessages(chunkId);
    assert.equal(held.length, texts.length, 'one chunk holds the conversation');
    return { chunkId, bot: 'mythos', payload: formatChunk(held, service.config.bots.mythos!) };
  };
  const partsHolding = async (messageId: string) =>
    (await client.scroll(PARTS, { limit: 1000, with_payload: true })).points.filter((p) =>
      String(p.payload!.messageIds).split(',').includes(messageId),
    );
  const partsOf = async (chunkId: string) =>
    (
      await client.scroll(PARTS, {
        limit: 1000,
        with_payload: true,
        filter: { must: [{ key: 'chunkId', match: { value: chunkId } }] },
      })
    ).points;
  /** The write side as a process started with `bots` sees it. */
  const indexWith = (bots: TestService['config']['bots']) => {
    const store = createQdrantPointStore({ url: service.storeUrl! });
    const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
    return new PartsIndex({ bots, journal, store, embedder, guard: createPartsGuard(store, journal) });
  };

  test('its bot left the config: the chunk written again loses every part', async () => {
    const chunk = await storeChunk('c-bot', ['My locker code is 4412', 'Noted, locker 4412']);
    assert.ok((await partsOf(chunk.chunkId)).length > 0, 'parts before');
    assert.equal(await indexWith({}).writeParts(CHUNKS, [chunk]), true);
    const left = await partsOf(chunk.chunkId);
    assert.deepEqual(
      left.map((p) => p.payload!.text),
      [],
      'no part of the chunk is left, none holding its old text',
    );
  });

  test('its messages were forgotten after the writer read it: no part holds them', async () => {
    const chunk = await storeChunk('c-gone', ['My bike lock is 9981', 'Lock 9981, got it']);
    // The journal step of a forget (another replica's), before its store step: the chunk as read is stale.
    await journal.forgetting.forgetMessages('mythos', [{ id: 'c-gone-0' }, { id: 'c-gone-1' }], Date.now());
    assert.equal(await indexWith(service.config.bots).writeParts(CHUNKS, [chunk]), true);
    const left = await partsOf(chunk.chunkId);
    assert.ok(
      left.every((p) => !String(p.payload!.text).includes('9981')),
      `parts still hold the forgotten text: ${left.map((p) => p.payload!.text).join(' | ')}`,
    );
    assert.equal(left.length, 0);
  });

  test('beside a chunk that has parts, the same: the outcome does not depend on the batch', async () => {
    const kept = await storeChunk('c-kept', ['Anna lives in Lisbon', 'Lisbon is sunny']);
    const dropped = await storeChunk('c-dropped', ['My PIN is 3141', 'PIN 3141, noted']);
    const bots = { other: { ...service.config.bots.mythos!, name: 'other' } };
    const other = { ...kept, bot: 'other' };
    assert.equal(await indexWith(bots).writeParts(CHUNKS, [other, dropped]), true);
    assert.ok((await partsOf(kept.chunkId)).length > 0, 'the chunk with parts keeps them');
    assert.equal((await partsOf(dropped.chunkId)).length, 0, 'the chunk without parts has none');
  });
});
