/**
 * Restored points carry the `dmWith` of the day their snapshot was taken: a DM recall must not trust it until the
 * rename pass has rewritten them under today's links (issue 33, findings 1 and 1b); and the collection a restore
 * creates is indexed on `dmWith` as serve's are (finding 5).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { snapshotFileSource } from '../cli/commands/restore-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { AccountKey } from '../journal/journal-people.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { readPersonDms } from '../people/read-person-dms.js';
import { buildRecallFilter } from '../retrieval/recall-scope.js';
import { matchFilter } from '../store/test-support/match-filter.js';
import { exportSnapshot } from './export-snapshot.js';
import { restoreSnapshot } from './restore-snapshot.js';
import { type DataToolStore, startDataToolStore } from './test-support/data-tool-store.js';

const bot = 'mythos';
const MODEL = new HashingEmbedder({ dimensions: 8 }).model;
const anna: AccountKey = { kind: 'user', value: 'telegram:5678' };
const carl: AccountKey = { kind: 'user', value: 'telegram:77' };
/** Carl's DM as the writer stored it while he was linked to Anna. */
const CARLS_POINT = {
  text: 'Carl: hi',
  isDm: true,
  source: 'hermes',
  channelId: 'tg-carl',
  dmWith: 'person:p_anna',
};

describe('a restore does not bring back a dmWith the journal trusts', () => {
  let tools: DataToolStore;
  let dir: string;

  /** Anna and Carl each DM the bot; both accounts are Anna's person, the pass done. */
  const openLinkedJournal = async (name: string): Promise<Journal> => {
    const journal = openSqliteJournal(join(dir, name));
    const dm = { bot, source: 'hermes', isDm: true, speakerKind: 'user' as const, text: 'hi' };
    await journal.recordMessages(
      [
        { ...dm, messageId: 'a1', ts: 1, channelId: 'tg-anna', userId: anna.value },
        { ...dm, messageId: 'c1', ts: 2, channelId: 'tg-carl', userId: carl.value },
      ],
      1,
    );
    await journal.people.create(bot, { id: 'p_anna', name: 'Anna', accounts: [anna, carl] }, 2);
    await journal.renames.queueRewrites(bot, await journal.renames.requests(bot), [], 3);
    return journal;
  };
  const exportFrom = async (journal: Journal, collection: string): Promise<string> => {
    await tools.client.createCollection(collection, { vectors: { size: 8, distance: 'Cosine' } });
    await tools.client.upsert(collection, {
      wait: true,
      points: [{ id: 1, vector: [1, 0, 0, 0, 0, 0, 0, 0], payload: CARLS_POINT }],
    });
    await journal.recordCollectionModel(collection, MODEL, 8, 4);
    const lines: string[] = [];
    const write = async (line: string) => void lines.push(line);
    await exportSnapshot({ store: tools.admin(), journal }, { bot, collection, write });
    const file = join(dir, `${collection}.jsonl`);
    writeFileSync(file, lines.join(''));
    return file;
  };
  const restoreInto = (journal: Journal, file: string, collection: string) =>
    restoreSnapshot(
      { store: tools.admin(), indexes: tools.store(), journal },
      { file, source: snapshotFileSource(file), bot, collection, configuredModel: MODEL, dryRun: false },
    );
  /** Whether a DM recall by `who` keeps the restored point, as read back from the store. */
  const sees = async (journal: Journal, who: AccountKey, collection: string): Promise<boolean> => {
    const [point] = (await tools.client.retrieve(collection, { ids: [1], with_payload: true })) ?? [];
    const dms = (await readPersonDms(journal, bot, who))!;
    const filter = buildRecallFilter('dm-private', {
      channelId: 'elsewhere',
      isDm: true,
      personDms: dms.person,
      ...(dms.dmWith === undefined ? {} : { personDmWith: dms.dmWith }),
    });
    return matchFilter(filter, { id: 1, payload: point!.payload! });
  };

  before(async () => {
    tools = await startDataToolStore();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-restore-dm-'));
  });
  after(async () => {
    await tools.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('exported between an unlink and its pass, restored into a fresh deployment: Anna does not see Carl’s DM', async () => {
    const source = await openLinkedJournal('source');
    const fresh = openSqliteJournal(join(dir, 'fresh'));
    try {
      await source.people.update(bot, 'p_anna', { remove: [carl] }, 5); // the pass has not run yet
      const file = await exportFrom(source, tools.uniqueCollection('stale'));
      const into = tools.uniqueCollection('stale');
      await restoreInto(fresh, file, into);
      assert.equal(await fresh.renames.isRenaming(bot), true, 'the restored journal has a rename left');
      assert.equal(await sees(fresh, anna, into), false, 'Anna’s DM recall keeps Carl’s restored DM');
    } finally {
      await source.close();
      await fresh.close();
    }
  });

  test('the collection a restore creates gets the keyword index DM recall filters dmWith by', async () => {
    const journal = await openLinkedJournal('indexed');
    try {
      const file = await exportFrom(journal, tools.uniqueCollection('indexed'));
      const into = tools.uniqueCollection('indexed');
      await restoreInto(journal, file, into);
      const described = await tools.client.getCollection(into);
      assert.equal(described.payload_schema?.dmWith?.data_type, 'keyword');
    } finally {
      await journal.close();
    }
  });

  test('an older snapshot restored into the same journal after Carl moved to his own person: Anna does not see it, Carl does', async () => {
    const journal = await openLinkedJournal('same');
    try {
      const file = await exportFrom(journal, tools.uniqueCollection('same'));
      await journal.people.update(bot, 'p_anna', { remove: [carl] }, 5);
      await journal.people.create(bot, { id: 'p_carl', name: 'Carl', accounts: [carl] }, 6);
      await journal.renames.queueRewrites(bot, await journal.renames.requests(bot), [], 7);
      const into = tools.uniqueCollection('same');
      await restoreInto(journal, file, into);
      assert.deepEqual(
        { anna: await sees(journal, anna, into), carl: await sees(journal, carl, into) },
        { anna: false, carl: true },
      );
      assert.deepEqual(
        (await journal.renames.requests(bot)).map((r) => r.account.value),
        [carl.value, anna.value].sort(),
        'a rename is requested for every user account of the restored messages',
      );
      // The journal's chunk rows still name the bot's own collection, so no pass rewrites the restored point: once
      // the renames are over, its dmWith must not name Anna.
      await journal.renames.queueRewrites(bot, await journal.renames.requests(bot), [], 8);
      assert.equal(await journal.renames.isRenaming(bot), false);
      assert.deepEqual(
        { anna: await sees(journal, anna, into), carl: await sees(journal, carl, into) },
        { anna: false, carl: true },
        'after the renames',
      );
    } finally {
      await journal.close();
    }
  });
});
