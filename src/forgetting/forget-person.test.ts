/**
 * @module `POST /forget { person }` in-process: every message of every linked account (and the companion's DM
 * replies) goes, in every source; SillyTavern's points naming the persona only with include_unsourced (admin);
 * a key missing a source gets a 403 naming it; the audit log names the person and accounts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApiKeyConfig } from '../config/config-types.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { sillyTavernPayload } from '../http/test-support/sillytavern-payload.js';
import { ownerKey as admin } from '../http/test-support/test-api-keys.js';

const discordForget: ApiKeyConfig = {
  name: 'discord-forget',
  key: 'discord-forget-key-0123456789',
  bots: '*',
  sources: ['discord'],
  scopes: ['forget'],
};
const allForget: ApiKeyConfig = {
  ...discordForget,
  name: 'all-forget',
  key: 'all-forget-key-0123456789',
  sources: '*',
};
const DAY = Date.UTC(2026, 10, 2, 9);

describe('forget a person', () => {
  let fake: FakeServiceDeps;
  let anna: string;
  const call = async (
    method: string,
    path: string,
    body: unknown,
    key = admin,
    // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  ): Promise<{ status: number; json: any }> => {
    const response = await fake.app.request(path, {
      method,
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: await response.json() };
  };
  const texts = () =>
    fake.store
      .heldPoints('mem_mythos')
      .map((p) => p.payload.text as string)
      .sort();

  before(async () => {
    fake = await createFakeServiceDeps({ config: { apiKeys: [admin, discordForget, allForget] } });
    const m = (id: string, offset: number, extra: object) => ({
      message_id: id,
      text: `${id} text`,
      ts: DAY + offset,
      ...extra,
    });
    const save = async (source: string, messages: object[]) =>
      assert.equal((await call('POST', '/save', { bot: 'mythos', source, messages })).status, 200);
    const dm = { channel_id: 'dm-anna', is_dm: true };
    await save('discord', [
      m('d1', 0, { speaker_kind: 'user', discord_user_id: '1234', speaker_name: 'anna_d', ...dm }),
      m('d2', 1, { speaker_kind: 'self', ...dm }),
      m('b1', 2, {
        speaker_kind: 'user',
        discord_user_id: '999',
        speaker_name: 'Bob',
        channel_id: 'general',
      }),
    ]);
    await save('hermes', [
      m('h1', 3, {
        speaker_kind: 'user',
        user_id: 'telegram:5678',
        speaker_name: 'Anna T',
        channel_id: 'tg',
      }),
    ]);
    await save('sillytavern', [
      m('s1', 4, { speaker_kind: 'user', speaker_name: 'Annie', channel_id: 'st' }),
    ]);
    await fake.writer.runOnce({ flush: true });
    // SillyTavern's own points (no source): one naming the persona, one not.
    await fake.store.upsertPoints('mem_mythos', [
      {
        id: 9001,
        vector: Array.from({ length: 16 }, (_, i) => (i + 1) / 16),
        payload: { ...sillyTavernPayload('[2026-11-01]\nAnnie: st one', 1), speakers: 'Annie, Mythos' },
      },
      {
        id: 9002,
        vector: Array.from({ length: 16 }, (_, i) => (16 - i) / 16),
        payload: { ...sillyTavernPayload('[2026-11-01]\nHelen: st two', 2), speakers: 'Helen, Mythos' },
      },
    ]);
    const made = await call('POST', '/bots/mythos/people', {
      name: 'Anna',
      accounts: [{ discord_user_id: '1234' }, { user_id: 'telegram:5678' }, { persona: 'Annie' }],
    });
    assert.equal(made.status, 201);
    anna = made.json.id;
  });
  after(() => fake.close());

  test('a key without every source involved gets 403 naming the missing ones, and nothing is forgotten', async () => {
    const denied = await call('POST', '/forget', { bot: 'mythos', person: anna }, discordForget);
    assert.equal(denied.status, 403);
    assert.match(denied.json.error.message, /"hermes", "sillytavern"/);
    const st = await call(
      'POST',
      '/forget',
      { bot: 'mythos', person: anna, include_unsourced: true },
      allForget,
    );
    assert.equal(st.status, 403);
    assert.match(st.json.error.message, /admin scope/);
    assert.equal((await fake.journal.botCounts('mythos')).forgotten, 0);
    const unknown = await call('POST', '/forget', { bot: 'mythos', person: 'p_nobody' });
    assert.deepEqual([unknown.status, unknown.json.error.field], [400, 'person']);
  });

  test('every account in every source goes, with the DM replies; SillyTavern points only when asked', async () => {
    const forgot = await call('POST', '/forget', { bot: 'mythos', person: anna }, allForget);
    assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
    assert.equal(forgot.json.messages_forgotten, 4); // d1, d2 (the reply in her DM), h1, s1
    await fake.writer.runOnce({ flush: true });
    assert.deepEqual(texts(), [
      '[2026-11-01]\nAnnie: st one',
      '[2026-11-01]\nHelen: st two',
      '[2026-11-02]\nBob: b1 text',
    ]);
    const withSt = await call('POST', '/forget', { bot: 'mythos', person: anna, include_unsourced: true });
    assert.equal(withSt.status, 200);
    assert.deepEqual(texts(), ['[2026-11-01]\nHelen: st two', '[2026-11-02]\nBob: b1 text']);
    const log = await call('GET', '/admin/forget-log?bot=mythos', undefined);
    const entry = log.json.entries.find((e: { selector: { person?: string } }) => e.selector.person === anna);
    assert.equal(entry.selector.person_name, 'Anna');
    assert.deepEqual(entry.selector.accounts, ['persona:Annie', 'discord:1234', 'telegram:5678']);
  });
});
