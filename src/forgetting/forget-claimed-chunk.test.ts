/**
 * @module Review s24 finding 1: a forget of a message whose chunk has another holder's live write claim (a
 * replica writing it, or this box's previous process killed mid-write) answers 200, not 503 store_unavailable.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openServingSqliteJournal, openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

const DAY = 1.7e12;
const message = (id: string, text: string) => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  channel_id: 'c',
  guild_id: 'g',
  ts: DAY,
});
const window = [message('m1', 'my secret password is swordfish'), message('m2', 'I like tea')];

/** A stored chunk of m1 and m2, edited since, then claimed by `holder` as a writer about to write it. */
async function startWithClaimedChunk(holder: string) {
  const dir = mkdtempSync(join(tmpdir(), 'forget-claimed-'));
  const journal = openSqliteJournal(join(dir, 'service'));
  const service = await startTestService({ dir, journal });
  await service.post('/save', { bot: 'mythos', messages: window });
  await service.writer.runOnce({ flush: true });
  await service.writer.stop(); // no background writer of this process from here on
  await service.post('/save', { bot: 'mythos', messages: [{ ...window[1]!, text: 'I like green tea' }] });
  const claimed = await journal.chunks.claimDueChunks(holder, Date.now(), 32, 30_000);
  assert.equal(claimed.length, 1);
  return { service, journal, chunkId: claimed[0]!.chunkId };
}

async function recalledTexts(service: TestService): Promise<string[]> {
  const recalled = await service.post('/retrieve', {
    bot: 'mythos',
    query_text: 'secret password swordfish',
  });
  return recalled.json.hits.map((h: { text: string }) => h.text);
}

test('a claim that stays (another writer, or a killed process): 200 after the wait, the delete left due', async () => {
  const { service, journal } = await startWithClaimedChunk('host:4242:dead');
  try {
    const forget = await service.post('/forget', { bot: 'mythos', message_ids: ['m1'] });
    assert.equal(forget.status, 200, JSON.stringify(forget.json));
    assert.equal(forget.json.messages_forgotten, 1);
    assert.equal(await journal.chunks.hasPendingDeletions('mythos'), true, 'the delete waits for the claim');
    assert.ok((await recalledTexts(service)).every((t) => !t.includes('swordfish')));
  } finally {
    await service.close();
  }
});

test('a claim released while the forget waits: the delete runs before the answer', async () => {
  const { service, journal, chunkId } = await startWithClaimedChunk('replica-b:1:abcd');
  try {
    const forget = service.post('/forget', { bot: 'mythos', message_ids: ['m1'] });
    await sleep(300);
    await journal.chunks.releaseChunkClaims('replica-b:1:abcd', [chunkId]);
    const answer = await forget;
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(await journal.chunks.hasPendingDeletions('mythos'), false);
  } finally {
    await service.close();
  }
});

test('serve on SQLite drops the claims a killed process left, so their chunks are due at once', async () => {
  const { service } = await startWithClaimedChunk('host:4242:dead');
  await service.stop(); // the data folder stays, as a killed process leaves it
  const dataDir = join(service.dir, 'service');
  const other = openSqliteJournal(dataDir); // a CLI command's open leaves the claim alone
  try {
    assert.equal((await other.chunks.claimDueChunks('host:9:cli', Date.now(), 32, 30_000)).length, 0);
  } finally {
    await other.close();
  }
  const serving = openServingSqliteJournal(dataDir);
  try {
    assert.equal((await serving.chunks.claimDueChunks('host:9:new', Date.now(), 32, 30_000)).length, 1);
  } finally {
    await serving.close();
  }
});
