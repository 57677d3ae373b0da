import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { seedPeople } from './seed-people.js';

test('speakerAliases seed one person per name; a second start adds nothing; an owner link or rename wins', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'memory-pool-seed-'));
  const journal = openSqliteJournal(dir);
  try {
    const bot = testBot('mythos', {
      speakerAliases: { '1234': 'Anna', 'telegram:5678': 'Anna ', 'slack:9': 'Bob', 'x:blank': ' ' },
    });
    const bots = { mythos: bot };
    const [first] = await seedPeople(journal, bots, 10);
    assert.deepEqual(first, { bot: 'mythos', created: 2, linked: 4, skipped: [] });
    const people = await journal.people.list('mythos');
    assert.deepEqual(
      people.map((p) => [p.name, p.accounts.map((a) => a.value)]),
      [
        ['Anna', ['1234', 'discord:1234', 'telegram:5678']],
        ['Bob', ['slack:9']],
      ],
    );
    assert.deepEqual(await seedPeople(journal, bots, 20), [
      { bot: 'mythos', created: 0, linked: 0, skipped: [] },
    ]);
    // The owner renamed Anna and moved telegram:5678 to Bob: a restart keeps both choices.
    const anna = people[0]!;
    const bob = people[1]!;
    await journal.people.update(
      'mythos',
      anna.id,
      { name: 'Anne', remove: [{ kind: 'user', value: 'telegram:5678' }] },
      30,
    );
    await journal.people.update('mythos', bob.id, { add: [{ kind: 'user', value: 'telegram:5678' }] }, 30);
    await seedPeople(journal, bots, 40);
    const after = await journal.people.list('mythos');
    assert.deepEqual(
      after.map((p) => [p.name, p.accounts.map((a) => a.value)]),
      [
        ['Anne', ['1234', 'discord:1234']],
        ['Bob', ['slack:9', 'telegram:5678']],
      ],
    );
    assert.deepEqual(await seedPeople(journal, { other: testBot('other') }, 50), []);
  } finally {
    await journal.close();
    await rm(dir, { recursive: true, force: true });
  }
});
