/**
 * @module A forget after a restore into a second collection beside the bot's own, in the same journal (docs/people.md,
 * "Known limits"), with the bot then pointed at the restored collection as the restore advises: what the forgotten
 * account said must be gone from the collection the bot reads, as read back through the store's REST API.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { snapshotFileSource } from '../cli/commands/restore-command.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { createQdrantStoreAdmin } from '../store/qdrant/qdrant-store-admin.js';
import { exportSnapshot } from './export-snapshot.js';
import { restoreSnapshot } from './restore-snapshot.js';

const RESTORED = 'mem_mythos_restored';

/** Every text held by `collection` and its parts, read through the store's REST API. */
async function heldTexts(storeUrl: string, collection: string): Promise<string[]> {
  const client = new QdrantClient({ url: storeUrl, checkCompatibility: false });
  const texts: string[] = [];
  for (const name of [collection, `${collection}__parts`]) {
    if (!(await client.collectionExists(name)).exists) continue;
    const { points } = await client.scroll(name, { limit: 1000, with_payload: true });
    for (const point of points) texts.push(String(point.payload?.text ?? ''));
  }
  return texts;
}

/** Exports the bot's collection and restores it into RESTORED, with a second connection to serve's journal. */
async function restoreBeside(service: TestService): Promise<void> {
  const journal = openSqliteJournal(join(service.dir, 'service'));
  const options = { url: service.storeUrl! };
  try {
    const lines: string[] = [];
    await exportSnapshot(
      { store: createQdrantStoreAdmin(options), journal },
      { bot: 'mythos', collection: 'mem_mythos', write: async (line) => void lines.push(line) },
    );
    const file = join(service.dir, 'mythos.jsonl');
    writeFileSync(file, lines.join(''));
    await restoreSnapshot(
      { store: createQdrantStoreAdmin(options), indexes: createQdrantPointStore(options), journal },
      {
        file,
        source: snapshotFileSource(file),
        bot: 'mythos',
        collection: RESTORED,
        configuredModel: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).model,
        dryRun: false,
      },
    );
  } finally {
    await journal.close();
  }
}

test('a forget after a restore beside the bot’s collection, the bot moved onto it: nothing of the account is left', {
  timeout: 60_000,
}, async () => {
  let service = await startTestService({ bots: [testBot('mythos')] });
  try {
    // Each in a channel of its own, so each message is a chunk of its own.
    const message = (id: string, user: string, text: string, at: number) => ({
      message_id: id,
      speaker_kind: 'user',
      speaker_name: `user_${user}`,
      discord_user_id: user,
      channel_id: `channel-${user}`,
      guild_id: 'g1',
      text,
      ts: Date.UTC(2026, 10, 2, 9) + at,
    });
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        message('a1', '1234', 'my locker code at the gym is 4417', 0),
        message('b1', '999', 'the ferry leaves at nine from the north pier', 1000),
      ],
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
    await restoreBeside(service);
    assert.ok(
      (await heldTexts(service.storeUrl!, RESTORED)).some((text) => text.includes('4417')),
      'restored',
    );
    await service.stop();

    // As the restore advises: bots.mythos.collection set to the restored collection, and serve started again.
    service = await startTestService({
      dir: service.dir,
      bots: [testBot('mythos', { collection: RESTORED })],
    });
    const forgot = await service.post('/forget', { bot: 'mythos', discord_user_id: '1234' });
    assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
    await service.writer.runOnce({ flush: true });
    const recalled = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'locker code gym',
      score_threshold: -1,
    });
    assert.equal(recalled.status, 200, JSON.stringify(recalled.json));
    assert.doesNotMatch(JSON.stringify(recalled.json.hits), /4417/, 'recall brings back what was forgotten');
    assert.deepEqual(
      (await heldTexts(service.storeUrl!, RESTORED)).filter((text) => text.includes('4417')),
      [],
      'the forgotten account’s words are still in the collection the bot reads',
    );
    assert.ok(
      (await heldTexts(service.storeUrl!, RESTORED)).some((text) => text.includes('north pier')),
      'the other account’s chunk stays',
    );
  } finally {
    await service.close();
  }
});
