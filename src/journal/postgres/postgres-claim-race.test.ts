/**
 * @module On Postgres a writer's claim check (renewChunkClaims) and a forget's markChunkDeleted run on different
 * replicas at the same moment: the claim row's lock orders them, so they never both believe they own the chunk.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Journal } from '../journal.js';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from '../test-support/start-postgres.js';
import { openPostgresJournal } from './postgres-journal.js';

describe('Postgres: a claim check racing a forget’s delete', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let writer: Journal;
  let forgetter: Journal;
  before(async () => {
    server = await startPostgres();
    const url = await server.createDatabase('claim_race');
    // The server's clock, as served replicas use it.
    writer = await openPostgresJournal(url);
    forgetter = await openPostgresJournal(url);
  });
  after(async () => {
    await writer?.close();
    await forgetter?.close();
    await server?.stop();
  });

  /** A chunk of message `id` (revision 0), claimed by W for `leaseMs`. */
  const claim = async (id: string, leaseMs: number) => {
    const now = Date.now();
    await writer.recordMessages(
      [{ bot: 'r', source: 'api', messageId: id, speakerKind: 'user', text: `secret ${id}`, ts: 1 }],
      now,
    );
    const chunkId = `c-${id}`;
    await writer.chunks.planChunk(
      { chunkId, bot: 'r', collection: 'col', source: 'api', messageIds: [id] },
      now,
    );
    const claimed = await writer.chunks.claimDueChunks('W', now, 1000, leaseMs);
    assert.ok(claimed.some((c) => c.chunkId === chunkId));
    return { chunkId, revision: 0 };
  };
  const forget = (id: string) => forgetter.forgetting.forgetMessages('r', [{ id }], Date.now());
  /** The revision the forget gave the chunk (planned at 0). */
  const FORGOTTEN_REVISION = 1;

  test('a renewal not yet committed when the claim’s old expiry passes: the delete waits for it, then stays due', {
    timeout: 20_000,
  }, async () => {
    const read = await claim('m1', 1_000);
    const { chunkId } = read;
    let deleted: Promise<void> | undefined;
    await writer.transaction(async (tx) => {
      assert.deepEqual(await tx.chunks.renewChunkClaims('W', [read], Date.now(), 60_000), [chunkId]);
      await sleep(1_200); // the claim's first expiry has passed; the renewal is not committed yet
      await forget('m1'); // the writer upserts now; the forget, on another replica, deletes meanwhile
      deleted = forgetter.chunks.markChunkDeleted(chunkId, FORGOTTEN_REVISION, Date.now());
      await sleep(200);
    });
    await deleted;
    assert.equal(await forgetter.chunks.hasChunk(chunkId), true);
    assert.equal(
      await forgetter.chunks.hasPendingDeletions('r'),
      true,
      'the delete stays due until W lets go',
    );
  });

  test('a delete that dropped the expired claim first: the renewal finds it lost', {
    timeout: 20_000,
  }, async () => {
    const read = await claim('m2', 50);
    const { chunkId } = read;
    await forget('m2');
    await sleep(100);
    await forgetter.chunks.markChunkDeleted(chunkId, FORGOTTEN_REVISION, Date.now());
    assert.equal(await forgetter.chunks.hasChunk(chunkId), false);
    assert.deepEqual(await writer.chunks.renewChunkClaims('W', [read], Date.now(), 60_000), []);
  });
});
