/**
 * @module Review s24 finding 1 on Postgres: replica A forgets a message of a chunk replica B is writing
 * (claimed); A answers 200, not 503, and the delete runs once B gives the claim back.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgresJournal } from '../journal/postgres/postgres-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';
import { startTestService } from '../service/test-support/start-test-service.js';

const DAY = 1.7e12;
const message = (id: string, text: string) => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  channel_id: 'c',
  guild_id: 'g',
  ts: DAY,
});

describe('a forget on one replica of a chunk another replica is writing', {
  skip: skipWithoutPostgres,
}, () => {
  let server: TestPostgres;
  before(async () => {
    server = await startPostgres();
  });
  after(async () => {
    await server?.stop();
  });

  test('answers 200, and the delete runs once the claim is given back', async () => {
    const url = await server.createDatabase('claimed');
    const dir = mkdtempSync(join(tmpdir(), 'forget-claimed-pg-'));
    const a = await startTestService({ dir, config: { journal: { postgres: { url } } } });
    const b = await openPostgresJournal(url); // replica B's journal
    try {
      const window = [message('m1', 'my secret password is swordfish'), message('m2', 'I like tea')];
      await a.post('/save', { bot: 'mythos', messages: window });
      await a.writer.runOnce({ flush: true });
      await a.writer.stop(); // only "replica B" writes from here
      await a.post('/save', { bot: 'mythos', messages: [{ ...window[1]!, text: 'I like green tea' }] });
      const claimed = await b.chunks.claimDueChunks('replica-b:1:abcd', Date.now(), 32, 30_000);
      assert.equal(claimed.length, 1);
      const forget = a.post('/forget', { bot: 'mythos', message_ids: ['m1'] });
      await sleep(300);
      await b.chunks.releaseChunkClaims(
        'replica-b:1:abcd',
        claimed.map((c) => c.chunkId),
      );
      const answer = await forget;
      assert.equal(answer.status, 200, JSON.stringify(answer.json));
      assert.equal(await b.chunks.hasPendingDeletions('mythos'), false);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
