/**
 * @module What every Journal backend must do, as one node:test suite run unchanged on SQLite and Postgres:
 * today's MessageJournal semantics (record outcomes, edits, forgets, routes, snapshots) and what replicas
 * add (two connections saving one window, a forget racing a claimed write, leases and chunk claims).
 * Longer than 300 lines because it is one list of cases, kept together so both backends run all of them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { MemoryMessage } from '../../chunking/memory-message.js';
import type { Journal, JournalTopic } from '../journal.js';
import { defineClaimRenewalCases } from './claim-contract.js';
import { defineDiscordStateCases } from './discord-contract.js';
import { definePeopleCases } from './people-contract.js';
import { defineRenameCases } from './rename-contract.js';

/** One journal under test, reached through as many connections as a case asks for. */
export interface JournalTarget {
  /** A new connection to the same journal (a second replica). */
  connect(): Promise<Journal>;
  /** Closes what the target itself opened. */
  close(): Promise<void>;
}

let botCount = 0;
/** A bot of its own for each case: the cases share one journal. */
const newBot = () => `bot${++botCount}`;

function message(
  bot: string,
  id: string,
  text = `text of ${id}`,
  extra: Partial<MemoryMessage> = {},
): MemoryMessage {
  return {
    bot,
    source: 'api',
    messageId: id,
    speakerKind: 'user',
    text,
    ts: 1000 + Number(id.replace(/\D/g, '') || 0),
    ...extra,
  };
}

const ids = (count: number, prefix = 'm') => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);

/** Defines the suite; `open` is called once, before its cases. */
export function describeJournalContract(name: string, open: () => Promise<JournalTarget>): void {
  describe(`Journal contract: ${name}`, () => {
    let target: JournalTarget;
    let a: Journal;
    let b: Journal;
    before(async () => {
      target = await open();
      a = await target.connect();
      b = await target.connect();
    });
    after(async () => {
      await a.close();
      await b.close();
      await target.close();
    });

    test('a window is accepted once; re-sent it is duplicates; new text is an edit', async () => {
      const bot = newBot();
      const window = ids(3).map((id) => message(bot, id));
      assert.deepEqual(await a.recordMessages(window, 10), {
        accepted: 3,
        duplicates: 0,
        edited: 0,
        forgotten: 0,
      });
      assert.deepEqual(await b.recordMessages(window, 11), {
        accepted: 0,
        duplicates: 3,
        edited: 0,
        forgotten: 0,
      });
      const edited = [message(bot, 'm1', 'changed'), message(bot, 'm4')];
      assert.deepEqual(await a.recordMessages(edited, 12), {
        accepted: 1,
        duplicates: 0,
        edited: 1,
        forgotten: 0,
      });
      const pending = await b.pendingMessages(bot, 'api\u0000');
      assert.deepEqual(
        pending.map((m) => [m.messageId, m.text, m.arrivedAt]),
        [
          ['m1', 'changed', 10],
          ['m2', 'text of m2', 10],
          ['m3', 'text of m3', 10],
          ['m4', 'text of m4', 12],
        ],
      );
    });

    test('an id twice in one call is known the second time: a duplicate, or an edit of what the first inserted', async () => {
      const bot = newBot();
      // The window's ids are looked up together before any is written: the second copy must still see the first.
      const window = [message(bot, 'm1'), message(bot, 'm1'), message(bot, 'm2'), message(bot, 'm2', 'new')];
      assert.deepEqual(await a.recordMessages(window, 20), {
        accepted: 2,
        duplicates: 1,
        edited: 1,
        forgotten: 0,
      });
      const pending = await b.pendingMessages(bot, 'api\u0000');
      assert.deepEqual(
        pending.map((m) => [m.messageId, m.text]),
        [
          ['m1', 'text of m1'],
          ['m2', 'new'],
        ],
      );
    });

    test('the same id in two sources is two messages; a DM keeps its fields', async () => {
      const bot = newBot();
      // U+0000 and a backslash: Postgres TEXT cannot hold the first, so its backend escapes both.
      const dm = message(bot, 'm1', 'hi\u0000 C:\\0 \\\\', {
        userId: 'u1',
        channelId: 'c1',
        isDm: true,
        speakerName: 'Ann',
      });
      const result = await a.recordMessages([dm, { ...dm, source: 'discord' }], 5);
      assert.equal(result.accepted, 2);
      const [stored] = await b.pendingMessages(bot, 'api\u0000c1');
      assert.deepEqual(stored, { ...dm, arrivedAt: 5, chunkId: undefined });
      assert.deepEqual((await b.botCounts(bot)).bySource, { api: 1, discord: 1 });
    });

    test('U+0000 in a speaker name or a store error reads back as written', async () => {
      const bot = newBot();
      const chunkId = `${bot}-c`;
      await a.recordMessages([message(bot, 'm1', 'a\u0000b', { speakerName: 'Ann\u0000\\0' })], 1);
      await a.chunks.planChunk({ chunkId, bot, collection: 'col', source: 'api', messageIds: ['m1'] }, 1);
      const [read] = await b.chunks.chunkMessages(chunkId);
      assert.deepEqual([read?.text, read?.speakerName], ['a\u0000b', 'Ann\u0000\\0']);
      await a.chunks.markChunkFailed(chunkId, 0, 'store said \u0000 no', 5);
      const rows = await b.snapshots.readRows('chunks', { bot, collection: 'col' });
      assert.deepEqual(
        rows.map((row) => row.last_error),
        ['store said \u0000 no'],
      );
    });

    test('counts and spans read the same from both connections', async () => {
      const bot = newBot();
      const before = await b.queueDepth();
      await a.recordMessages(
        ids(3).map((id) => message(bot, id, id, { channelId: 'c9' })),
        70,
      );
      await a.chunks.planChunk(
        { chunkId: `${bot}-c`, bot, collection: 'col', source: 'api', messageIds: ['m1', 'm2'] },
        71,
      );
      const planned = await b.queueDepth();
      assert.deepEqual(
        [planned.pendingMessages - before.pendingMessages, planned.plannedChunks - before.plannedChunks],
        [1, 1],
      );
      await b.chunks.markChunkStored(`${bot}-c`, 0, 72);
      assert.equal(await a.unstoredInConversation(bot, 'api\u0000c9'), 1);
      assert.deepEqual(await a.memorySpan(bot), { oldestMs: 1001, newestMs: 1003 });
      assert.equal(await a.memorySpan(newBot()), undefined);
      assert.deepEqual(await b.botCounts(bot), {
        bySource: { api: 3 },
        pending: 1,
        oldestPendingAt: 70,
        forgotten: 0,
        planned: 0,
        stored: 1,
      });
      const conversations = (await b.pendingConversations()).filter((c) => c.bot === bot);
      assert.deepEqual(conversations, [{ bot, conversation: 'api\u0000c9', lastArrivalMs: 70 }]);
    });

    test('an edit of a stored chunk plans it again under a new revision', async () => {
      const bot = newBot();
      await a.recordMessages([message(bot, 'm1'), message(bot, 'm2')], 1);
      await a.chunks.planChunk(
        { chunkId: `${bot}-c1`, bot, collection: 'col', source: 'api', messageIds: ['m1', 'm2'] },
        2,
      );
      const [planned] = await b.chunks.plannedChunks([`${bot}-c1`]);
      assert.equal(planned?.revision, 0);
      await b.chunks.markChunkStored(`${bot}-c1`, 0, 3);
      assert.deepEqual(
        (await a.chunks.storedChunks(bot)).map((c) => c.chunkId),
        [`${bot}-c1`],
      );
      assert.equal((await a.recordMessages([message(bot, 'm2', 'edited')], 4)).edited, 1);
      const [again] = await b.chunks.plannedChunks([`${bot}-c1`]);
      assert.equal(again?.revision, 1);
      assert.deepEqual(
        (await a.chunks.chunkMessages(`${bot}-c1`)).map((m) => m.text),
        ['text of m1', 'edited'],
      );
    });

    test('a forgotten id stays forgotten when re-sent, on either connection', async () => {
      const bot = newBot();
      await a.recordMessages([message(bot, 'm1'), message(bot, 'm2')], 1);
      const result = await b.forgetting.forgetMessages(bot, [{ id: 'm1' }], 2);
      assert.equal(result.messagesForgotten, 1);
      assert.equal(result.pendingDropped, 1);
      assert.deepEqual(await a.recordMessages([message(bot, 'm1'), message(bot, 'm2')], 3), {
        accepted: 0,
        duplicates: 1,
        edited: 0,
        forgotten: 1,
      });
      assert.deepEqual([...(await a.forgetting.forgottenAmong(bot, ['m1', 'm2', '']))], ['m1']);
    });

    test('a source-scoped forget holds for that source only', async () => {
      const bot = newBot();
      await a.recordMessages([message(bot, 'm1'), message(bot, 'm1', 'x', { source: 'discord' })], 1);
      await b.forgetting.forgetMessages(bot, [{ id: 'm1' }], 2, ['api']);
      assert.deepEqual([...(await a.forgetting.journaledAmong(bot, 'discord', ['m1']))], ['m1']);
      assert.equal((await a.recordMessages([message(bot, 'm1')], 3)).forgotten, 1);
      assert.equal(
        (await a.recordMessages([message(bot, 'm1', 'x', { source: 'discord' })], 3)).duplicates,
        1,
      );
      // Scoped to a source: not reported as forgotten for the bot, since another source still holds it.
      assert.deepEqual([...(await a.forgetting.forgottenAmong(bot, ['m1']))], []);
    });

    test("a channel's messages of one source in a time range, oldest first", async () => {
      const bot = newBot();
      const said = (id: string, channelId: string, extra: Partial<MemoryMessage> = {}) =>
        message(bot, id, `text of ${id}`, { source: 'discord', channelId, ...extra });
      await a.recordMessages(
        [
          said('m3', 'c1'),
          said('m1', 'c1'),
          said('m2', 'c2'),
          said('m4', 'c1', { source: 'api' }),
          said('m5', 'c1'),
        ],
        1,
      );
      assert.deepEqual(await b.forgetting.journaledInChannel(bot, 'discord', 'c1', 1001, 1004), [
        { id: 'm1', ts: 1001, text: 'text of m1' },
        { id: 'm3', ts: 1003, text: 'text of m3' },
      ]);
      await b.forgetting.forgetMessages(bot, [{ id: 'm1' }], 2);
      assert.deepEqual(
        (await a.forgetting.journaledInChannel(bot, 'discord', 'c1', 0, 2000)).map((m) => m.id),
        ['m3', 'm5'],
      );
    });

    test('two connections saving the same windows at once store each message once', async () => {
      const bot = newBot();
      const windows = Array.from({ length: 12 }, (_, round) =>
        ids(8).map((_, i) => message(bot, `m${round * 4 + i}`)),
      );
      const results = await Promise.all(
        windows.flatMap((window) => [
          a.recordMessages(window, 1),
          b.recordMessages([...window].reverse(), 1),
        ]),
      );
      const distinct = new Set(windows.flat().map((m) => m.messageId)).size;
      assert.equal(
        results.reduce((sum, r) => sum + r.accepted, 0),
        distinct,
      );
      assert.equal((await a.botCounts(bot)).bySource.api, distinct);
      assert.equal((await b.pendingMessages(bot, 'api\u0000')).length, distinct);
    });

    test('a save racing a forget of the same ids never brings a forgotten message back', async () => {
      const bot = newBot();
      const window = ids(20).map((id) => message(bot, id));
      await Promise.all([
        a.recordMessages(window, 1),
        b.forgetting.forgetMessages(
          bot,
          window.map((m) => ({ id: m.messageId })),
          1,
        ),
        a.recordMessages(window, 2),
      ]);
      assert.equal((await b.botCounts(bot)).bySource.api, undefined);
      assert.equal((await a.recordMessages(window, 3)).forgotten, 20);
    });

    test('a forget is final: a write of the old text, claimed on another connection, is not taken as current', async () => {
      const bot = newBot();
      const chunkId = `${bot}-c1`;
      await a.recordMessages([message(bot, 'm1'), message(bot, 'm2')], 1);
      await a.chunks.planChunk(
        { chunkId, bot, collection: 'col', source: 'api', messageIds: ['m1', 'm2'] },
        1,
      );
      await a.chunks.markChunkStored(chunkId, 0, 2);
      await a.recordMessages([message(bot, 'm2', 'rewritten')], 3); // planned again, revision 1
      const [claimed] = (await a.chunks.claimDueChunks('replica-a', 4, 1000, 60_000)).filter(
        (c) => c.chunkId === chunkId,
      );
      assert.equal(claimed?.revision, 1);
      const oldText = await a.chunks.chunkMessages(chunkId);
      assert.equal(oldText.length, 2);
      const forgot = await b.forgetting.forgetMessages(bot, [{ id: 'm1' }], 5);
      assert.deepEqual(forgot.chunkIds, [chunkId]);
      // The write that still held m1 is refused; its writer re-queues (a delete is pending already) and lets go.
      assert.equal(await a.chunks.markChunkStored(chunkId, claimed!.revision, 6), false);
      await a.chunks.requeueStaleWrite(claimed!, 6);
      await a.chunks.releaseChunkClaims('replica-a', [chunkId]);
      assert.deepEqual(await b.chunks.storedChunks(bot), []);
      const [deletion] = (await b.chunks.dueDeletions(7, 1000)).filter((c) => c.chunkId === chunkId);
      assert.equal(deletion?.revision, 2);
      await b.chunks.markChunkDeleted(chunkId, 2, 7);
      assert.deepEqual(
        (await a.chunks.chunkMessages(chunkId)).map((m) => m.messageId),
        ['m2'],
      );
      assert.deepEqual(
        (await a.chunks.plannedChunks([chunkId])).map((c) => c.revision),
        [2],
      );
    });

    test('a forget is final: a delete waits for a live write claim, and a write landing after a delete is deleted again', async () => {
      const bot = newBot();
      const secret = ['m1', 'm2'].map((id) => message(bot, id, `secret ${id}`));
      const plan = async (chunkId: string) => {
        await a.recordMessages(secret, 1);
        await a.chunks.planChunk(
          { chunkId, bot, collection: 'col', source: 'api', messageIds: ['m1', 'm2'] },
          1,
        );
        const [claim] = (await a.chunks.claimDueChunks('W', 10, 1000, 60_000)).filter(
          (c) => c.chunkId === chunkId,
        );
        assert.ok(claim);
        return claim;
      };
      const due = async (now: number) => (await b.chunks.dueDeletions(now, 1000)).map((c) => c.chunkId);
      // W claimed c1 until 60 010 and embeds its text; F forgets both messages meanwhile.
      const c1 = `${bot}-c1`;
      const live = await plan(c1);
      await b.forgetting.forgetMessages(bot, [{ id: 'm1' }, { id: 'm2' }], 20);
      assert.equal((await due(30)).includes(c1), false, 'no delete while the write claim is live');
      await b.chunks.markChunkDeleted(c1, live.revision + 1, 30); // a deleter that read it earlier: kept
      assert.equal(await b.chunks.hasChunk(c1), true);
      // W's upsert lands: refused, re-queued, released; the delete is due again and removes W's point.
      assert.equal(await a.chunks.markChunkStored(c1, live.revision, 40), false);
      await a.chunks.requeueStaleWrite(live, 40);
      await a.chunks.releaseChunkClaims('W', [c1]);
      assert.equal((await due(50)).includes(c1), true);
      await b.chunks.markChunkDeleted(c1, live.revision + 1, 50);
      assert.equal(await b.chunks.hasChunk(c1), false);
      // A writer slower than its claim: the delete runs first and drops the row; its late write is deleted again.
      await a.recordMessages([message(bot, 'm3', 'secret m3')], 60);
      const c2 = `${bot}-c2`;
      await a.chunks.planChunk(
        { chunkId: c2, bot, collection: 'col', source: 'api', messageIds: ['m3'] },
        60,
      );
      const [slow] = (await a.chunks.claimDueChunks('W', 70, 1000, 10)).filter((c) => c.chunkId === c2);
      assert.ok(slow);
      await b.forgetting.forgetMessages(bot, [{ id: 'm3' }], 75);
      const [expired] = (await b.chunks.dueDeletions(90, 1000)).filter((c) => c.chunkId === c2);
      assert.ok(expired, 'an expired claim does not hold a delete back');
      await b.chunks.markChunkDeleted(c2, expired.revision, 90);
      assert.equal(await b.chunks.hasChunk(c2), false);
      assert.equal(await a.chunks.markChunkStored(c2, slow.revision, 95), false);
      await a.chunks.requeueStaleWrite(slow, 95);
      assert.equal((await due(100)).includes(c2), true, 'the late write is deleted again');
      assert.deepEqual(
        await b.chunks.dueChunks(100, 1000).then((l) => l.filter((c) => c.chunkId === c2)),
        [],
      );
    });

    test('a forget that empties a stored chunk deletes it; the rest is rewritten', async () => {
      const bot = newBot();
      await a.recordMessages(
        ids(3).map((id) => message(bot, id)),
        1,
      );
      await a.chunks.planChunk(
        { chunkId: `${bot}-x`, bot, collection: 'col', source: 'api', messageIds: ['m1'] },
        1,
      );
      await a.chunks.planChunk(
        { chunkId: `${bot}-y`, bot, collection: 'col', source: 'api', messageIds: ['m2', 'm3'] },
        1,
      );
      await a.chunks.markChunkStored(`${bot}-x`, 0, 2);
      await a.chunks.markChunkStored(`${bot}-y`, 0, 2);
      const result = await b.forgetting.forgetMessages(bot, [{ id: 'm1' }, { id: 'm2' }], 3);
      assert.deepEqual(
        {
          deleted: result.pointsDeleted,
          rewritten: result.pointsRewritten,
          forgotten: result.messagesForgotten,
        },
        { deleted: 1, rewritten: 1, forgotten: 2 },
      );
      assert.equal(await a.chunks.hasPendingDeletions(bot), true);
      await a.chunks.markChunkDeleted(`${bot}-x`, 1, 10);
      assert.equal(await a.chunks.hasChunk(`${bot}-x`), false);
    });

    test('findMatching finds a user, both sides of their DMs; the audit lists newest first', async () => {
      const bot = newBot();
      await a.recordMessages(
        [
          message(bot, 'm1', 'mine', { userId: 'u1', channelId: 'dm1', isDm: true }),
          message(bot, 'm2', 'reply', { speakerKind: 'self', channelId: 'dm1', isDm: true }),
          message(bot, 'm3', 'other', { userId: 'u2', channelId: 'g1' }),
        ],
        1,
      );
      const found = await b.forgetting.findMatching(bot, { field: 'userId', value: 'u1' });
      assert.deepEqual(found.map((t) => t.id).sort(), ['m1', 'm2']);
      assert.deepEqual(
        await b.forgetting.findMatching(bot, { field: 'channelId', value: 'g1' }, ['discord']),
        [],
      );
      await a.forgetting.recordAudit({
        at: 1,
        actor: 'k1',
        bot,
        selector: { userId: 'u1' },
        result: { n: 2 },
      });
      await b.forgetting.recordAudit({ at: 2, actor: 'k2', bot, selector: { all: true }, result: { n: 1 } });
      const audit = await a.forgetting.listAudit({ bot, limit: 10 });
      assert.deepEqual(
        audit.map((e) => [e.actor, e.selector]),
        [
          ['k2', { all: true }],
          ['k1', { userId: 'u1' }],
        ],
      );
    });

    test('a transaction commits all of its work or, on a throw, none of it', async () => {
      const bot = newBot();
      await assert.rejects(
        a.transaction(async (tx) => {
          await tx.recordMessages([message(bot, 'm1')], 1);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.deepEqual((await b.botCounts(bot)).bySource, {});
      await a.transaction(async (tx) => {
        await tx.recordMessages([message(bot, 'm1')], 1);
        await tx.chunks.planChunk(
          { chunkId: `${bot}-c`, bot, collection: 'col', source: 'api', messageIds: ['m1'] },
          1,
        );
      });
      assert.equal(await b.chunks.hasChunk(`${bot}-c`), true);
    });

    test('a lease is held until it expires, renewed by its holder, then taken over', async () => {
      const name = `gateway-${newBot()}`;
      assert.equal(await a.leases.acquire(name, 'A', 1000, 0), true);
      assert.equal(await b.leases.acquire(name, 'B', 1000, 500), false);
      assert.equal(await b.leases.holderOf(name, 500), 'A');
      assert.equal(await a.leases.acquire(name, 'A', 1000, 900), true); // renewed until 1900
      assert.equal(await b.leases.acquire(name, 'B', 1000, 1500), false);
      assert.equal(await b.leases.holderOf(name, 1900), undefined);
      assert.equal(await b.leases.acquire(name, 'B', 1000, 1900), true);
      await a.leases.release(name, 'A'); // no longer A's: nothing happens
      assert.equal(await a.leases.holderOf(name, 2000), 'B');
      await b.leases.release(name, 'B');
      assert.equal(await a.leases.acquire(name, 'A', 1000, 2000), true);
    });

    test('chunk claims: never the same chunk twice while live; a dead holder’s expire and are taken over', async () => {
      const bot = newBot();
      await a.recordMessages(
        ids(6).map((id) => message(bot, id)),
        1,
      );
      const chunkIds = ids(6, `${bot}-c`);
      for (const [i, chunkId] of chunkIds.entries()) {
        await a.chunks.planChunk(
          { chunkId, bot, collection: 'col', source: 'api', messageIds: [`m${i + 1}`] },
          1_000 + i,
        );
      }
      const mine = (list: { chunkId: string }[]) =>
        list.map((c) => c.chunkId).filter((id) => chunkIds.includes(id));
      const [first, second] = await Promise.all([
        a.chunks.claimDueChunks('A', 10_000, 3, 1000),
        b.chunks.claimDueChunks('B', 10_000, 3, 1000),
      ]);
      const both = [...mine(first), ...mine(second)];
      assert.equal(new Set(both).size, both.length, 'no chunk claimed twice');
      const rest = mine(await b.chunks.claimDueChunks('B', 10_500, 100, 1000));
      assert.deepEqual([...both, ...rest].sort(), [...chunkIds].sort());
      // Live claims are nobody's to take, their holder's included (a second pass of it would write twice).
      assert.deepEqual(mine(await a.chunks.claimDueChunks('A', 10_900, 100, 1000)), []);
      // A is killed: its claims (and B's first ones) expire at 11 000; B takes them over then.
      const takenOver = mine(await b.chunks.claimDueChunks('B', 11_000, 100, 1000));
      assert.deepEqual(takenOver.sort(), both.sort());
      await b.chunks.releaseChunkClaims('B', takenOver.slice(0, 2));
      assert.deepEqual(mine(await a.chunks.claimDueChunks('A', 11_100, 100, 1000)), takenOver.slice(0, 2));
    });

    test('two connections claiming in a loop share the due chunks without overlap', async () => {
      const bot = newBot();
      const chunkIds = ids(40, `${bot}-k`);
      await a.recordMessages(
        ids(40).map((id) => message(bot, id)),
        1,
      );
      for (const [i, chunkId] of chunkIds.entries()) {
        await a.chunks.planChunk(
          { chunkId, bot, collection: 'col', source: 'api', messageIds: [`m${i + 1}`] },
          50_000 + i,
        );
      }
      const claimAll = async (journal: Journal, holder: string) => {
        const got: string[] = [];
        for (;;) {
          const batch = (await journal.chunks.claimDueChunks(holder, 60_000, 3, 10_000)).map(
            (c) => c.chunkId,
          );
          const ours = batch.filter((id) => chunkIds.includes(id));
          if (batch.length === 0) return got;
          got.push(...ours);
        }
      };
      const [fromA, fromB] = await Promise.all([claimAll(a, 'A'), claimAll(b, 'B')]);
      assert.deepEqual([...fromA, ...fromB].sort(), [...chunkIds].sort());
    });

    test('routes, reembeds, parts indexes and models read the same from every connection', async () => {
      const col = `${newBot()}-col`;
      assert.equal(await b.routes.activeCollection(col), col);
      await a.routes.beginReembed(col, col, `${col}-v2`, '{"provider":"offline"}', 1);
      assert.equal(await b.routes.followerOf(col), `${col}-v2`);
      assert.equal(await b.routes.isReembedTarget(`${col}-v2`), true);
      assert.equal(await b.routes.isReembedTarget(col), false);
      assert.equal(await b.routes.embeddingOf(`${col}-v2`), '{"provider":"offline"}');
      await a.routes.switchTo(col, `${col}-v2`, 2);
      assert.deepEqual(await b.routes.routeOf(col), {
        collection: col,
        target: `${col}-v2`,
        previous: col,
        switchedAt: 2,
      });
      assert.equal(await b.routes.reembedOf(col), undefined);
      assert.equal(await b.routes.resolve(col), `${col}-v2`);
      assert.equal(await b.routes.followerOf(col), `${col}-v2`);
      await a.routes.forgetPrevious(col);
      assert.equal((await b.routes.routeOf(col))?.previous, undefined);
      assert.equal(await b.partsIndexes.isComplete(col), undefined);
      await a.partsIndexes.recordStarted(col, false, 1);
      await a.partsIndexes.recordStarted(col, true, 2); // the first record stands
      assert.equal(await b.partsIndexes.isComplete(col), false);
      await a.partsIndexes.markComplete(col, 3);
      assert.equal(await b.partsIndexes.isComplete(col), true);
      await b.partsIndexes.markIncomplete(col, 4);
      assert.equal(await a.partsIndexes.isComplete(col), false);
      await b.partsIndexes.forget(col);
      assert.equal(await a.partsIndexes.isComplete(col), undefined);
      await a.recordCollectionModel(col, 'm-1', 384, 1);
      await b.recordCollectionModel(col, 'm-2', 768, 2);
      assert.deepEqual(await a.collectionModel(col), { model: 'm-1', dimensions: 384 });
      await b.forgetCollectionModel(col);
      assert.equal(await a.collectionModel(col), undefined);
    });

    test('a route switched on one connection is announced to a watcher on another', async () => {
      const col = `${newBot()}-col`;
      const heard = new Promise<JournalTopic>((resolve) => {
        const unwatch = b.changes.watch((topic) => {
          if (topic !== 'routes') return;
          unwatch();
          resolve(topic);
        });
      });
      // The watch's own timers do not hold the process open; this does until the change is heard.
      const keepAlive = setInterval(() => undefined, 100);
      // Give a listening connection its moment to start; the assertion is only that the change arrives.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await a.routes.switchTo(col, `${col}-v2`, 1);
      assert.equal(await heard.finally(() => clearInterval(keepAlive)), 'routes');
    });

    test('snapshot rows read back as written, renamed, and a second restore adds nothing', async () => {
      const bot = newBot();
      const copy = newBot();
      await a.recordMessages([message(bot, 'm1')], 1);
      await a.chunks.planChunk(
        { chunkId: `${bot}-c`, bot, collection: `${bot}-col`, source: 'api', messageIds: ['m1'] },
        1,
      );
      await a.forgetting.forgetMessages(bot, [{ id: 'gone' }], 2);
      const from = { bot, collection: `${bot}-col` };
      const to = { bot: copy, collection: `${copy}-col` };
      const messages = await a.snapshots.readRows('messages', from);
      const chunks = await a.snapshots.readRows('chunks', from);
      assert.equal(messages[0]?.text, 'text of m1');
      await b.snapshots.checkRows({ messages: [{ ...messages[0], nonsense: 1 }] }, from, to).then(
        () => assert.fail('an unknown column must be refused'),
        (error: Error) => assert.match(error.message, /nonsense/),
      );
      assert.equal(await b.snapshots.insertRows('messages', messages, from, to), 1);
      assert.equal(await b.snapshots.insertRows('messages', messages, from, to), 0);
      await b.snapshots.insertRows(
        'chunks',
        chunks.map((row) => ({ ...row, chunk_id: `${copy}-c` })),
        from,
        to,
      );
      const restored = await a.snapshots.readRows('chunks', to);
      assert.deepEqual(restored, [
        { ...chunks[0], chunk_id: `${copy}-c`, bot: copy, collection: `${copy}-col` },
      ]);
      assert.equal((await a.snapshots.readRows('forgotten_messages', from)).length, 1);
      await a.recordCollectionModel(`${bot}-col`, 'm-1', 384, 4);
      assert.deepEqual(await b.snapshots.readRows('collection_models', from), [
        { collection: `${bot}-col`, model: 'm-1', dimensions: 384, recorded_at: 4 },
      ]);
      await a.snapshots.recordRestore(`${copy}-col`, 'snap.jsonl', false, 3);
      assert.deepEqual(await b.snapshots.restoreOf(`${copy}-col`), {
        snapshot: 'snap.jsonl',
        complete: false,
      });
    });

    defineClaimRenewalCases(() => ({ a, b }), newBot);
    defineDiscordStateCases(() => ({ a, b }), newBot);
    definePeopleCases(() => ({ a, b }), newBot);
    defineRenameCases(() => ({ a, b }), newBot);

    test('the probe writes, and checkWritable passes on a healthy journal', async () => {
      await a.probeWritable();
      await b.checkWritable();
      await a.flush();
    });
  });
}
