/**
 * @module One name at write time (docs/people.md): chunks of linked accounts are stored under the person's
 * name, whichever interface sent them; a link made by another process is used within ~1 s; with nobody linked
 * the chunks read exactly as before.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { createFakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { PEOPLE_CACHE_MS } from '../people/people-names.js';

const DAY = Date.UTC(2026, 10, 2, 9);

test('a link made through another journal connection names the next chunks of both accounts within 2 s', async (t) => {
  const fake = await createFakeServiceDeps();
  t.after(() => fake.close());
  const save = async (source: string, id: string, who: object, text: string, offset: number) => {
    const body = {
      bot: 'mythos',
      source,
      messages: [{ message_id: id, speaker_kind: 'user', text, ts: DAY + offset, ...who }],
    };
    const response = await fake.app.request('/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200);
  };
  const texts = () =>
    fake.store
      .heldPoints('mem_mythos')
      .map((p) => p.payload.text as string)
      .sort();

  // Nobody linked: each account is named as its client sent it (as before people existed).
  await save('discord', 'd1', { discord_user_id: '1234', speaker_name: 'anna_d' }, 'hello from discord', 0);
  await save('hermes', 'h1', { user_id: 'telegram:5678', speaker_name: 'Anna T' }, 'hello from telegram', 1);
  await fake.writer.runOnce({ flush: true });
  assert.deepEqual(texts(), [
    '[2026-11-02]\nAnna T: hello from telegram',
    '[2026-11-02]\nanna_d: hello from discord',
  ]);

  // Another replica (here: another connection to the same journal) links both accounts.
  const replica = openSqliteJournal(fake.deps.config.dataDir);
  await replica.people.create(
    'mythos',
    {
      id: 'p1',
      name: 'Anna',
      accounts: [
        { kind: 'user', value: 'discord:1234' },
        { kind: 'user', value: 'telegram:5678' },
      ],
    },
    Date.now(),
  );
  await replica.close();
  await sleep(PEOPLE_CACHE_MS + 50);
  await save(
    'discord',
    'd2',
    { discord_user_id: '1234', speaker_name: 'anna_d' },
    'ping <@1234> back',
    3_600_000,
  );
  await save('hermes', 'h2', { user_id: 'telegram:5678', speaker_name: 'Anna T' }, 'again', 3_600_001);
  await fake.writer.runOnce({ flush: true });
  const now = texts();
  assert.ok(now.includes('[2026-11-02]\nAnna: ping Anna back'), now.join(' | '));
  assert.ok(now.includes('[2026-11-02]\nAnna: again'), now.join(' | '));
});
