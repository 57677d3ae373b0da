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
  // Their parts (what hybrid recall searches by meaning and by word) name the person too.
  const parts = fake.store.heldPoints('mem_mythos__parts').map((p) => p.payload.text as string);
  assert.ok(parts.includes('Anna: ping Anna back'), parts.join(' | '));
  assert.ok(parts.includes('Anna: again'), parts.join(' | '));
});

test('a link renames the chunks already stored: same point ids and timestamps; SillyTavern points untouched', async (t) => {
  const fake = await createFakeServiceDeps();
  t.after(() => fake.close());
  const request = (method: string, path: string, body: unknown) =>
    fake.app.request(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const message = (id: string, offset: number, who: object) => ({
    message_id: id,
    speaker_kind: 'user',
    text: `${id} said hi to <@1234>`,
    ts: DAY + offset,
    ...who,
  });
  await request('POST', '/save', {
    bot: 'mythos',
    source: 'discord',
    messages: [
      message('d1', 0, { discord_user_id: '1234', speaker_name: 'anna_d' }),
      message('b1', 1, { discord_user_id: '9', speaker_name: 'Bob' }),
    ],
  });
  await request('POST', '/save', {
    bot: 'mythos',
    source: 'other',
    messages: [message('o1', 7_200_000, { user_id: 'slack:1', speaker_name: 'Carl' })],
  });
  await fake.writer.runOnce({ flush: true });
  await fake.store.upsertPoints('mem_mythos', [
    {
      id: 9001,
      vector: Array.from({ length: 16 }, (_, i) => (i + 1) / 16),
      payload: {
        text: '[2026-11-01]\nanna_d: st',
        speakers: 'anna_d',
        timestamp: 1,
        messageIds: 'st1',
        isChunk: true,
      },
    },
  ]);
  const held = () =>
    fake.store
      .heldPoints('mem_mythos')
      .map((p) => ({ id: p.id, text: p.payload.text, timestamp: p.payload.timestamp }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  const before = held();
  const linked = await request('POST', '/bots/mythos/people', {
    name: 'Anna',
    accounts: [{ discord_user_id: '1234' }],
  });
  assert.equal(linked.status, 201);
  let after = before;
  for (let tries = 0; tries < 50 && JSON.stringify(after) === JSON.stringify(before); tries++) {
    await sleep(100);
    await fake.writer.runOnce({ flush: true });
    after = held();
  }
  assert.deepEqual(
    after.map((p) => p.id),
    before.map((p) => p.id),
    'same point ids',
  );
  assert.deepEqual(
    after.map((p) => p.timestamp),
    before.map((p) => p.timestamp),
    'same timestamps',
  );
  const texts = after.map((p) => p.text).sort();
  assert.deepEqual(texts, [
    '[2026-11-01]\nanna_d: st',
    '[2026-11-02]\nAnna: d1 said hi to Anna\nBob: b1 said hi to Anna',
    '[2026-11-02]\nCarl: o1 said hi to Anna',
  ]);
});
