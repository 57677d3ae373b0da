/**
 * @module Seeding people from `speakerAliases` requests the rename only of chunks the alias did not name already:
 * the first start with people (an upgrade) does not re-embed every chunk of every aliased account for nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { testBot } from '../config/test-support/test-bot.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { seedPeople } from './seed-people.js';

const said = (messageId: string, source: string, userId: string): MemoryMessage => ({
  bot: 'mythos',
  source,
  messageId,
  speakerKind: 'user',
  text: 'hello',
  ts: 1,
  userId,
});

async function seededRequests(aliases: Record<string, string>, messages: MemoryMessage[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'memory-pool-seed-renames-'));
  const journal: Journal = openSqliteJournal(dir);
  try {
    await journal.recordMessages(messages, 1);
    await seedPeople(journal, { mythos: testBot('mythos', { speakerAliases: aliases }) }, 10);
    assert.ok((await journal.people.list('mythos')).length > 0, 'the people are seeded');
    return (await journal.renames.requests('mythos')).map((request) => request.account.value);
  } finally {
    await journal.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('seeding aliases whose names the chunks already carry requests no rename', async () => {
  const messages = [
    said('m1', 'discord', '1234'),
    said('m2', 'hermes', 'telegram:5678'),
    said('m3', 'st', '1234'),
  ];
  assert.deepEqual(await seededRequests({ '1234': 'Anna', 'telegram:5678': 'Bob' }, messages), []);
});

test('seeding still renames what the alias never named: a discord: id sent by another interface, a discord: key', async () => {
  // The alias `1234` matched the recorder's bare id, not Hermes' `discord:1234`, which the person now names.
  const hermes = [said('m1', 'discord', '1234'), said('m2', 'hermes', 'discord:1234')];
  assert.deepEqual(await seededRequests({ '1234': 'Anna' }, hermes), ['discord:1234']);
  // A `discord:99` key named no recorder message (bare id 99) nor `<@99>` mention; the person names both.
  assert.deepEqual(await seededRequests({ 'discord:99': 'Cy' }, [said('m1', 'discord', '99')]), [
    'discord:99',
  ]);
});
