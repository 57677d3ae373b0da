import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { ApiKeyConfig } from '../config/config-types.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

const keys: ApiKeyConfig[] = [
  {
    name: 'discord',
    key: 'discord-key-0123456789',
    bots: '*',
    sources: ['discord'],
    scopes: ['save', 'retrieve', 'forget'],
    source: 'discord',
  },
  { name: 'saver', key: 'saver-key-0123456789', bots: '*', sources: '*', scopes: ['save', 'retrieve'] },
  { name: 'admin', key: 'admin-key-0123456789', bots: '*', sources: '*', scopes: ['admin'] },
];
const as = (name: string) => ({ authorization: `Bearer ${keys.find((k) => k.name === name)!.key}` });
const DAY = Date.UTC(2026, 11, 1, 12);

type Message = {
  speaker_kind: 'user' | 'self';
  text: string;
  message_id: string;
  ts?: number;
  [field: string]: unknown;
};
const user = (id: string, text: string, extra: Record<string, unknown> = {}): Message => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  ts: DAY + Number(id.replace(/\D/g, '') || 0),
  discord_user_id: 'u-helen',
  speaker_name: 'Helen',
  ...extra,
});
const self = (id: string, text: string, extra: Record<string, unknown> = {}): Message => ({
  speaker_kind: 'self',
  text,
  message_id: id,
  ts: DAY + Number(id.replace(/\D/g, '') || 0),
  ...extra,
});

describe('edits and forgetting', () => {
  let service: TestService;
  let client: QdrantClient;
  before(async () => {
    service = await startTestService({ bots: [testBot('mythos')], config: { apiKeys: keys } });
    client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
  });
  after(() => service.close());

  const save = async (messages: Message[], extra: Record<string, unknown> = {}, key = 'admin') => {
    const response = await service.post(
      '/save',
      { bot: 'mythos', source: 'discord', messages, ...extra },
      as(key),
    );
    assert.equal(response.status, 200, JSON.stringify(response.json));
    return response.json;
  };
  const forget = (body: Record<string, unknown>, key = 'admin') =>
    service.post('/forget', { bot: 'mythos', ...body }, as(key));
  const flush = () => service.writer.runOnce({ flush: true });
  const points = async (must: object[] = []) =>
    (await client.scroll('mem_mythos', { limit: 100, with_payload: true, filter: { must } })).points;
  const pointsOf = (channel: string) => points([{ key: 'channelId', match: { value: channel } }]);

  test('an edit of a flushed message rewrites its chunk in place; the same text again changes nothing', async () => {
    await save([
      user('e1', 'I live in Porto', { channel_id: 'edit' }),
      self('e2', 'Porto is lovely', { channel_id: 'edit' }),
    ]);
    await flush();
    const [before] = await pointsOf('edit');
    assert.match(String(before!.payload!.text), /Helen: I live in Porto/);
    const edited = await save([
      user('e1', 'I live in Lisbon', { channel_id: 'edit', edited: true }),
      self('e2', 'Porto is lovely', { channel_id: 'edit' }),
    ]);
    assert.deepEqual([edited.edited, edited.duplicates, edited.accepted], [1, 1, 0]);
    await flush();
    const after = await pointsOf('edit');
    assert.equal(after.length, 1);
    assert.equal(after[0]!.id, before!.id, 'same point id');
    assert.match(String(after[0]!.payload!.text), /Helen: I live in Lisbon\nMythos: Porto is lovely/);
  });

  test('an edit of a pending message replaces the pending copy', async () => {
    await save([user('p1', 'my cat is called Tom', { channel_id: 'pending' })]);
    const edited = await save([user('p1', 'my cat is called Pixel', { channel_id: 'pending' })]);
    assert.equal(edited.edited, 1);
    await flush();
    const [point] = await pointsOf('pending');
    assert.match(String(point!.payload!.text), /Helen: my cat is called Pixel$/);
  });

  test('forget by message id rewrites the chunk without it, then deletes it when nothing is left; a re-sent window brings nothing back', async () => {
    const window = [
      user('f1', 'my password hint is marmalade', { channel_id: 'f' }),
      self('f2', 'I will keep that safe', { channel_id: 'f' }),
    ];
    await save(window);
    await flush();
    const [original] = await pointsOf('f');
    const first = await forget({ message_ids: ['f1'] });
    assert.deepEqual(first.json, {
      ok: true,
      points_deleted: 0,
      points_rewritten: 1,
      pending_dropped: 0,
      messages_forgotten: 1,
    });
    const [rewritten] = await pointsOf('f');
    assert.equal(rewritten!.id, original!.id);
    assert.equal(rewritten!.payload!.messageIds, 'f2');
    assert.doesNotMatch(String(rewritten!.payload!.text), /marmalade/);

    const again = await forget({ message_ids: ['f1'] });
    assert.deepEqual(
      again.json,
      { ok: true, points_deleted: 0, points_rewritten: 0, pending_dropped: 0, messages_forgotten: 0 },
      'idempotent',
    );
    assert.deepEqual((await forget({ message_ids: ['f2'] })).json.points_deleted, 1);
    assert.equal((await pointsOf('f')).length, 0);

    const resent = await save(window);
    assert.deepEqual([resent.accepted, resent.forgotten], [0, 2]);
    await flush();
    assert.equal((await pointsOf('f')).length, 0);
    const recalled = await service.post(
      '/retrieve',
      { bot: 'mythos', query_text: 'password hint marmalade' },
      as('admin'),
    );
    assert.ok(recalled.json.hits.every((hit: { text: string }) => !hit.text.includes('marmalade')));
  });

  test('a forget of more messages than one journal slice holds counts each chunk once, even one emptied across slices', async () => {
    const ids = Array.from({ length: 600 }, (_, i) => `s${i}`);
    for (let start = 0; start < ids.length; start += 300) {
      await save(
        ids
          .slice(start, start + 300)
          .map((id, i) =>
            (i % 2 === 0 ? user : self)(id, `slice message ${id} about teapots`, { channel_id: 'slices' }),
          ),
      );
    }
    await flush();
    const stored = await client.count('mem_mythos', {
      filter: { must: [{ key: 'channelId', match: { value: 'slices' } }] },
      exact: true,
    });
    // The first id of every chunk goes first and the rest last, so each chunk loses messages in two slices.
    const { points: all } = await client.scroll('mem_mythos', {
      limit: 1000,
      with_payload: true,
      filter: { must: [{ key: 'channelId', match: { value: 'slices' } }] },
    });
    const chunks = all.map((point) => String(point.payload!.messageIds).split(','));
    assert.equal(chunks.length, stored.count);
    const order = [...chunks.map((chunk) => chunk[0]!), ...chunks.flatMap((chunk) => chunk.slice(1))];
    let forgotten = 0;
    let deleted = 0;
    let rewritten = 0;
    for (let start = 0; start < order.length; start += 1000) {
      const answer = await forget({ message_ids: order.slice(start, start + 1000), source: 'discord' });
      assert.equal(answer.status, 200, JSON.stringify(answer.json));
      forgotten += answer.json.messages_forgotten;
      deleted += answer.json.points_deleted;
      rewritten += answer.json.points_rewritten;
    }
    assert.deepEqual(
      { forgotten, deleted, rewritten },
      { forgotten: 600, deleted: stored.count, rewritten: 0 },
    );
    await flush();
    assert.equal((await pointsOf('slices')).length, 0);
  });

  test('forget drops pending messages before they are ever written', async () => {
    await save([user('q1', 'secret pending thing', { channel_id: 'q' })]);
    const response = await forget({ message_ids: ['q1'] });
    assert.deepEqual(response.json, {
      ok: true,
      points_deleted: 0,
      points_rewritten: 0,
      pending_dropped: 1,
      messages_forgotten: 1,
    });
    await flush();
    assert.equal((await pointsOf('q')).length, 0);
  });

  test("a person's forget-me removes what they wrote and the agent's replies in their DMs, not elsewhere", async () => {
    await save([
      user('m1', 'in the guild I said hello', { channel_id: 'g-chan', guild_id: 'g1' }),
      self('m2', 'hello Helen, in the guild', { channel_id: 'g-chan', guild_id: 'g1' }),
    ]);
    await save([
      user('m3', 'in my DM I confess a secret', { channel_id: 'dm-helen' }),
      self('m4', 'your DM secret is safe', { channel_id: 'dm-helen' }),
    ]);
    await save([
      user('m5', 'someone else talks', {
        channel_id: 'g-chan2',
        guild_id: 'g1',
        discord_user_id: 'u-bob',
        speaker_name: 'Bob',
      }),
    ]);
    await flush();
    const [dm] = await pointsOf('dm-helen');
    assert.equal(dm!.payload!.isDm, true, 'DMs are marked on their points');
    const response = await forget({ discord_user_id: 'u-helen' });
    assert.equal(response.status, 200);
    assert.ok(response.json.messages_forgotten >= 3);
    const [guild] = await pointsOf('g-chan');
    assert.equal(guild!.payload!.messageIds, 'm2', "the agent's guild reply stays");
    assert.equal((await pointsOf('dm-helen')).length, 0, 'the DM chunk is gone entirely');
    assert.equal((await pointsOf('g-chan2')).length, 1, "Bob's memories stay");
  });

  test('bulk forget by source leaves SillyTavern points alone; only an admin can name them explicitly', async () => {
    const [vector] = await new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).embed([
      '[2026-10-01]\nHelen: a SillyTavern memory',
    ]);
    await client.upsert('mem_mythos', {
      wait: true,
      points: [
        {
          id: '00000000-0000-4000-8000-000000000001',
          vector: Array.from(vector!),
          payload: {
            text: '[2026-10-01]\nHelen: a SillyTavern memory',
            speakers: 'Helen',
            messageCount: 1,
            timestamp: DAY,
            messageIds: 'Mythos_1_1',
            isChunk: true,
          },
        },
        // A discord point the journal never saw (e.g. an earlier journal): the bulk filter still finds it.
        {
          id: '00000000-0000-4000-8000-000000000002',
          vector: Array.from(vector!),
          payload: {
            text: 'x',
            speakers: 'Helen',
            messageCount: 1,
            timestamp: DAY,
            messageIds: 'orphan',
            isChunk: true,
            source: 'discord',
          },
        },
      ],
    });
    await save([user('h1', 'hermes talk', { channel_id: 'hermes-chat' })], { source: 'hermes' });
    await flush();
    const denied = await forget({ source: 'hermes' }, 'discord');
    assert.equal(denied.status, 403, 'a key scoped to discord cannot forget hermes');
    const noScope = await forget({ source: 'discord' }, 'saver');
    assert.equal(noScope.status, 403);
    assert.match(noScope.json.error.message, /forget scope/);

    const bulk = await forget({ source: 'discord' }, 'discord');
    assert.equal(bulk.status, 200);
    assert.ok(bulk.json.points_deleted >= 2);
    const remaining = await points();
    assert.deepEqual(remaining.map((p) => p.payload!.source ?? 'sillytavern').sort(), [
      'hermes',
      'sillytavern',
    ]);

    const needsConfirm = await forget({ source: null }, 'admin');
    assert.equal(needsConfirm.status, 400);
    assert.equal(needsConfirm.json.error.field, 'source');
    const notAdmin = await forget({ source: null, include_unsourced: true }, 'discord');
    assert.equal(notAdmin.status, 403);
    const unsourced = await forget({ source: null, include_unsourced: true }, 'admin');
    assert.deepEqual(unsourced.json.points_deleted, 1);
    assert.deepEqual(
      (await points()).map((p) => p.payload!.source),
      ['hermes'],
    );
  });

  test('an admin forgets single SillyTavern points by id: their messages are tombstoned, a sourced point named stays', async () => {
    const texts = ['[2026-10-02]\nHelen: the red kite', '[2026-10-03]\nHelen: the blue kite'];
    const vectors = await new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).embed(texts);
    await save([user('st-keep', 'a discord message beside them', { channel_id: 'st-by-id' })]);
    await save([user('Mythos_5_2', 'the same message, imported before', { channel_id: 'st-import' })], {
      source: 'sillytavern',
    });
    await flush();
    const [sourced] = await pointsOf('st-by-id');
    await client.upsert('mem_mythos', {
      wait: true,
      points: texts.map((text, i) => ({
        id: 8100 + i,
        vector: Array.from(vectors[i]!),
        payload: {
          text,
          speakers: 'Helen',
          messageCount: 2,
          timestamp: DAY,
          messageIds: `Mythos_5_${i + 1},Mythos_5_${i + 2}`,
          isChunk: true,
        },
      })),
    });
    const denied = await forget({ point_ids: [8100], include_unsourced: true }, 'discord');
    assert.equal(denied.status, 403);
    const response = await forget({ point_ids: [8100, sourced!.id], include_unsourced: true });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    // The SillyTavern point and the journal's copy of one of its messages go; the discord point stays.
    assert.deepEqual(response.json, {
      ok: true,
      points_deleted: 2,
      points_rewritten: 0,
      pending_dropped: 0,
      messages_forgotten: 3,
    });
    const left = await points([{ has_id: [8100, 8101, sourced!.id] }]);
    assert.deepEqual(left.map((p) => p.id).sort(), [8101, sourced!.id].sort());
    assert.equal((await pointsOf('st-import')).length, 0);
    // An import of the chat (or any re-send) never brings the forgotten messages back, whatever the source.
    const resent = await save(
      [user('Mythos_5_1', 'the red kite'), user('Mythos_5_2', 'the red kite, again')],
      { source: 'sillytavern' },
    );
    assert.deepEqual([resent.accepted, resent.forgotten], [0, 2]);
    const log = await fetch(`${service.url}/admin/forget-log?bot=mythos&limit=1`, { headers: as('admin') });
    const [entry] = ((await log.json()) as { entries: { selector: Record<string, unknown> }[] }).entries;
    assert.deepEqual(entry!.selector, { point_ids: [8100, sourced!.id], include_unsourced: true });
  });

  test('forget by channel and by guild', async () => {
    await save([user('c1', 'channel one talk', { channel_id: 'c-one', guild_id: 'g9' })]);
    await save([user('c2', 'channel two talk', { channel_id: 'c-two', guild_id: 'g9' })]);
    await save([user('c3', 'other guild talk', { channel_id: 'c-three', guild_id: 'g8' })]);
    await flush();
    assert.equal((await forget({ channel_id: 'c-one' })).json.points_deleted, 1);
    assert.equal((await pointsOf('c-one')).length, 0);
    assert.equal((await forget({ guild_id: 'g9' })).json.points_deleted, 1);
    assert.equal((await pointsOf('c-two')).length, 0);
    assert.equal((await pointsOf('c-three')).length, 1);
  });

  test('the same message id from two interfaces is two messages; a scoped key forgets only its own', async () => {
    const a = await save([self('self-1-1', 'discord says the lantern is blue', { channel_id: 'same-id' })]);
    const b = await save([self('self-1-1', 'hermes says the kettle is red', { channel_id: 'same-id' })], {
      source: 'hermes',
    });
    assert.deepEqual([a.accepted, b.accepted, b.edited], [1, 1, 0], 'not an edit of the other interface');
    await flush();
    const texts = async () =>
      (await pointsOf('same-id'))
        .map((p) => `${p.payload!.source}: ${String(p.payload!.text).split('\n')[1]}`)
        .sort();
    assert.deepEqual(await texts(), [
      'discord: Mythos: discord says the lantern is blue',
      'hermes: Mythos: hermes says the kettle is red',
    ]);
    const forgot = await forget({ message_ids: ['self-1-1'] }, 'discord');
    assert.equal(forgot.json.messages_forgotten, 1);
    assert.deepEqual(await texts(), ['hermes: Mythos: hermes says the kettle is red']);
    const resent = await save(
      [self('self-1-1', 'hermes says the kettle is red', { channel_id: 'same-id' })],
      { source: 'hermes' },
    );
    assert.equal(resent.duplicates, 1, "the discord key's tombstone does not block hermes");
  });

  test('message_ids with a source forget those ids in that source only, even with an admin key', async () => {
    await save([self('self-7-1', 'discord says the door is green', { channel_id: 'ids-in-source' })]);
    await save([self('self-7-1', 'hermes says the window is wide', { channel_id: 'ids-in-source' })], {
      source: 'hermes',
    });
    await flush();
    const forgot = await forget({ message_ids: ['self-7-1'], source: 'hermes' });
    assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
    assert.deepEqual([forgot.json.messages_forgotten, forgot.json.points_deleted], [1, 1]);
    assert.deepEqual(
      (await pointsOf('ids-in-source')).map((p) => p.payload!.source),
      ['discord'],
      "discord's message with the same id stays",
    );
    const otherSource = await forget({ message_ids: ['self-7-1'], source: 'hermes' }, 'discord');
    assert.equal(otherSource.status, 403, 'a discord key may not name hermes');
    const unsourced = await forget({ message_ids: ['self-7-1'], source: null });
    assert.equal(unsourced.status, 400, 'source: null is only for SillyTavern points as a whole');
  });

  test('exactly one selector is required', async () => {
    const none = await forget({});
    assert.equal(none.status, 400);
    assert.match(none.json.error.message, /exactly one of/);
    const two = await forget({ channel_id: 'a', guild_id: 'b' });
    assert.equal(two.status, 400);
    assert.equal(two.json.error.field, 'guild_id');
  });

  test('every forget is in the audit log, readable by admins only', async () => {
    const denied = await fetch(`${service.url}/admin/forget-log?bot=mythos`, { headers: as('discord') });
    assert.equal(denied.status, 403);
    const response = await fetch(`${service.url}/admin/forget-log?bot=mythos&limit=500`, {
      headers: as('admin'),
    });
    const { entries } = (await response.json()) as {
      entries: { actor: string; selector: Record<string, unknown>; result: { points_deleted: number } }[];
    };
    assert.ok(
      entries.some(
        (e) => e.actor === 'discord' && e.selector.source === 'discord' && e.result.points_deleted >= 2,
      ),
    );
    assert.ok(entries.some((e) => e.actor === 'admin' && e.selector.include_unsourced === true));
    assert.ok(!JSON.stringify(entries).includes(keys[0]!.key), 'keys are never recorded');
  });
});
