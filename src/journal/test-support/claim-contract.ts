/**
 * @module The claim renewal cases of the journal contract (journal-contract.ts calls them, on every backend):
 * a writer slower than its claim keeps it by renewing, loses it for good once it expired, and a forget's delete
 * and a writer's check before its upsert never both believe they own the chunk.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Journal } from '../journal.js';

/** Defines the cases; `connections` gives the suite's two connections once they are open. */
export function defineClaimRenewalCases(
  connections: () => { a: Journal; b: Journal },
  newBot: () => string,
): void {
  /** One message `id` of `bot` in a chunk of its own, planned at `now`; answers the chunk id. */
  const planOne = async (journal: Journal, bot: string, id: string, now: number) => {
    const chunkId = `${bot}-${id}`;
    await journal.recordMessages(
      [{ bot, source: 'api', messageId: id, speakerKind: 'user', text: `secret ${id}`, ts: now }],
      now,
    );
    await journal.chunks.planChunk({ chunkId, bot, collection: 'col', source: 'api', messageIds: [id] }, now);
    return chunkId;
  };

  test('claims: a live claim is renewed by its holder only; an expired one is never revived, taken over or not', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const c1 = await planOne(a, bot, 'm1', 1);
    const mine = (list: { chunkId: string }[]) => list.map((c) => c.chunkId).filter((id) => id === c1);
    const read = [{ chunkId: c1, revision: 0 }];
    assert.deepEqual(mine(await a.chunks.claimDueChunks('W', 10, 1000, 100)), [c1]); // until 110
    assert.deepEqual(
      await a.chunks.renewChunkClaims('W', [...read, { chunkId: `${bot}-none`, revision: 0 }], 100, 100),
      [c1],
    ); // until 200
    assert.deepEqual(mine(await b.chunks.claimDueChunks('X', 150, 1000, 100)), [], 'renewed: still W’s');
    assert.deepEqual(await b.chunks.renewChunkClaims('X', read, 150, 100), [], 'not X’s to renew');
    // W stalls past its claim: lost, even before anyone takes it over.
    assert.deepEqual(await a.chunks.renewChunkClaims('W', read, 200, 100), []);
    assert.deepEqual(mine(await b.chunks.claimDueChunks('X', 201, 1000, 100)), [c1]);
    assert.deepEqual(await a.chunks.renewChunkClaims('W', read, 202, 100), []);
    assert.deepEqual(await b.chunks.renewChunkClaims('X', read, 202, 100), [c1]);
    // An edit moves the chunk on: X's claim is renewed (X still writes, then gives it back), but the revision X
    // read is no longer worth writing.
    await a.recordMessages(
      [{ bot, source: 'api', messageId: 'm1', speakerKind: 'user', text: 'edited', ts: 1 }],
      203,
    );
    assert.deepEqual(await b.chunks.renewChunkClaims('X', read, 204, 100), []);
    assert.deepEqual(mine(await a.chunks.claimDueChunks('W', 250, 1000, 100)), [], 'renewed: still X’s');
    assert.deepEqual(await b.chunks.renewChunkClaims('X', [{ chunkId: c1, revision: 1 }], 260, 100), [c1]);
  });

  test('claims: a forget’s delete and a writer’s renewal before its upsert never both win', async () => {
    const { a, b } = connections();
    const bot = newBot();
    // The delete came first: the claim had expired, the delete dropped it, the writer's check finds it lost.
    const c1 = await planOne(a, bot, 'm1', 1);
    const [first] = (await a.chunks.claimDueChunks('W', 10, 1000, 100)).filter((c) => c.chunkId === c1);
    assert.ok(first);
    await b.forgetting.forgetMessages(bot, [{ id: 'm1' }], 120);
    const [expired] = (await b.chunks.dueDeletions(120, 1000)).filter((c) => c.chunkId === c1);
    assert.ok(expired, 'an expired claim does not hold the delete back');
    await b.chunks.markChunkDeleted(c1, expired.revision, 120);
    assert.equal(await b.chunks.hasChunk(c1), false);
    assert.deepEqual(await a.chunks.renewChunkClaims('W', [first], 121, 100), [], 'lost: never revived');
    // The writer's check came first (just before expiry): the claim is live through the upsert, so the forget
    // neither runs the delete nor counts it as undone for want of a claim, and a deleter that read it earlier
    // leaves it due.
    const c2 = await planOne(a, bot, 'm2', 200);
    const [second] = (await a.chunks.claimDueChunks('W', 210, 1000, 100)).filter((c) => c.chunkId === c2);
    assert.ok(second);
    assert.deepEqual(await a.chunks.renewChunkClaims('W', [second], 309, 100), [c2]); // until 409
    await b.forgetting.forgetMessages(bot, [{ id: 'm2' }], 320);
    assert.equal(
      (await b.chunks.dueDeletions(320, 1000)).some((c) => c.chunkId === c2),
      false,
    );
    assert.equal(await b.chunks.hasUnclaimedDeletions(bot, 320), false);
    await b.chunks.markChunkDeleted(c2, second.revision + 1, 320);
    assert.equal(await b.chunks.hasPendingDeletions(bot), true, 'the delete stays due');
    // A check after the forget: the claim is renewed (until 430), the chunk is not written (moved on).
    assert.deepEqual(await a.chunks.renewChunkClaims('W', [second], 330, 100), []);
    // The writer dies after its upsert (no markChunkStored, no release): its claim runs out, the delete runs.
    const [late] = (await b.chunks.dueDeletions(440, 1000)).filter((c) => c.chunkId === c2);
    assert.ok(late);
    await b.chunks.markChunkDeleted(c2, late.revision, 440);
    assert.equal(await b.chunks.hasChunk(c2), false);
  });

  test('claims: claimChunks takes the chunks named that wait for a write and no one else holds', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const [c1, c2, c3] = [
      await planOne(a, bot, 'm1', 1),
      await planOne(a, bot, 'm2', 1),
      await planOne(a, bot, 'm3', 1),
    ];
    await a.chunks.markChunkStored(c3!, 0, 2); // stored: nothing to write
    await a.chunks.markChunkFailed(c2!, 0, 'down', 1_000_000); // due much later: a forget's rewrite takes it now
    const taken = await b.chunks.claimChunks('X', [c2!, c1!, c3!, `${bot}-none`], 10, 100);
    assert.deepEqual(
      taken.map((c) => c.chunkId),
      [c2, c1],
      'in the order asked',
    );
    assert.deepEqual(await a.chunks.claimChunks('W', [c1!], 20, 100), [], 'X’s live claim');
    assert.deepEqual(
      (await a.chunks.claimChunks('W', [c1!], 110, 100)).map((c) => c.chunkId),
      [c1],
      'X’s expired claim',
    );
    assert.deepEqual(await b.chunks.renewChunkClaims('X', taken, 111, 100), []);
    assert.deepEqual(await a.chunks.renewChunkClaims('W', [{ chunkId: c1!, revision: 0 }], 111, 100), [c1]);
  });
}
