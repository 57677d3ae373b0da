import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatChunk } from '../chunking/chunk-format.js';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createPeopleNames, toPeopleNames } from './people-names.js';

const message = (id: string, extra: Partial<MemoryMessage>): MemoryMessage => ({
  bot: 'mythos',
  source: 'discord',
  messageId: id,
  speakerKind: 'user',
  text: 'hi',
  ts: Date.UTC(2026, 0, 2),
  ...extra,
});

test('a linked account is written under the person name, mentions too; unlinked ones as before', () => {
  const people = toPeopleNames([
    {
      id: 'p1',
      name: 'Anna',
      createdAt: 0,
      updatedAt: 0,
      accounts: [
        { kind: 'user', value: 'discord:1234' },
        { kind: 'user', value: 'telegram:5678' },
        { kind: 'persona', value: 'Annie' },
      ],
    },
  ]);
  const config = { selfSpeaker: 'Mythos', speakerAliases: { '1234': 'Old alias' }, people };
  const chunk = formatChunk(
    [
      message('1', { userId: '1234', speakerName: 'anna_d', text: 'hi <@999> and <@!1234>' }),
      message('2', {
        source: 'hermes',
        userId: 'telegram:5678',
        speakerName: 'Anna T',
        ts: Date.UTC(2026, 0, 2, 1),
      }),
      message('3', {
        source: 'hermes',
        userId: 'discord:1234',
        speakerName: 'x',
        ts: Date.UTC(2026, 0, 2, 2),
      }),
      message('4', { source: 'sillytavern', speakerName: 'Annie', ts: Date.UTC(2026, 0, 2, 3) }),
      message('5', {
        source: 'hermes',
        userId: 'telegram:1',
        speakerName: 'Bob',
        ts: Date.UTC(2026, 0, 2, 4),
      }),
      message('6', { speakerKind: 'self', ts: Date.UTC(2026, 0, 2, 5) }),
    ],
    config,
  );
  assert.equal(
    chunk.text,
    '[2026-01-02]\nAnna: hi <@999> and Anna\nAnna: hi\nAnna: hi\nAnna: hi\nBob: hi\nMythos: hi',
  );
  assert.equal(chunk.speakers, 'Anna, Bob, Mythos');
  // With no person linked, the alias and the sent names answer exactly as before.
  const before = formatChunk([message('1', { userId: '1234', speakerName: 'anna_d', text: '<@1234>' })], {
    selfSpeaker: 'Mythos',
    speakerAliases: { '1234': 'Old alias' },
    people: toPeopleNames([]),
  });
  assert.equal(before.text, '[2026-01-02]\nOld alias: Old alias');
});

test('a link made through another connection is used once the cache (1 s) has passed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'memory-pool-names-'));
  const a = openSqliteJournal(dir);
  const b = openSqliteJournal(dir);
  try {
    let clock = 0;
    const namesFor = createPeopleNames(a, { now: () => clock });
    assert.equal((await namesFor('mythos')).nameOf('discord', '1', undefined), undefined);
    await b.people.create(
      'mythos',
      { id: 'p1', name: 'Anna', accounts: [{ kind: 'user', value: 'discord:1' }] },
      1,
    );
    clock = 999;
    assert.equal((await namesFor('mythos')).nameOf('discord', '1', undefined), undefined, 'still cached');
    clock = 1000;
    assert.equal((await namesFor('mythos')).nameOf('discord', '1', undefined), 'Anna');
  } finally {
    await a.close();
    await b.close();
    await rm(dir, { recursive: true, force: true });
  }
});
