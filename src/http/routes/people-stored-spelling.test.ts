/**
 * @module Accounts linked before the API normalised them (`telegram:42 `, `Discord:555`, `discord:user-42` from a
 * `speakerAliases` key): the owner unlinks them as GET lists them, an unlink of an account the person does not
 * have is a 400, a start respells them so one account is never two people, and an alias key that is no
 * Discord id seeds no Discord account.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../../config/test-support/test-bot.js';
import { normaliseStoredPeople } from '../../people/normalise-stored-people.js';
import { seedPeople } from '../../people/seed-people.js';
import { createJsonCaller } from '../test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { hermesKey, ownerKey } from '../test-support/test-api-keys.js';

describe('accounts stored in an older spelling', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const store = (id: string, name: string, value: string) =>
    fake.journal.people.create('mythos', { id, name, accounts: [{ kind: 'user', value }] }, Date.now());
  const listed = async (id: string) =>
    ((await call('GET', '/bots/mythos/people')).json.people as { id: string; accounts: object[] }[]).find(
      (person) => person.id === id,
    );

  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos')],
      config: { apiKeys: [ownerKey, hermesKey] },
    });
  });
  after(() => fake.close());

  test('the owner unlinks an account as GET lists it, with a trailing space or a non-digit Discord id', async () => {
    await store('old1', 'Old', 'telegram:42 ');
    await store('old2', 'Old2', 'discord:anna#1234');
    for (const id of ['old1', 'old2']) {
      const shown = (await listed(id))!.accounts[0];
      const patch = await call('PATCH', `/bots/mythos/people/${id}`, { remove: [shown] });
      assert.equal(patch.status, 200, JSON.stringify(patch.json));
      assert.deepEqual(patch.json.accounts, []);
    }
  });

  test('unlinking an account the person does not have is a 400 naming it, not a silent 200', async () => {
    await store('old3', 'Old3', 'telegram:7');
    const patch = await call('PATCH', '/bots/mythos/people/old3', { remove: [{ user_id: 'telegram:8' }] });
    assert.equal(patch.status, 400, JSON.stringify(patch.json));
    assert.equal(patch.json.error.field, 'remove[0]');
    assert.match(patch.json.error.message, /telegram:8 is not linked to Old3/);
    assert.deepEqual((await listed('old3'))!.accounts, [{ user_id: 'telegram:7' }]);
  });

  test('the interface unlinks its own account stored with a trailing space', async () => {
    await store('old4', 'Old4', 'telegram:43 ');
    const unlinked = await call(
      'DELETE',
      '/bots/mythos/people/old4/accounts',
      { account: { user_id: 'telegram:43' } },
      hermesKey,
    );
    assert.equal(unlinked.status, 200, JSON.stringify(unlinked.json));
    assert.deepEqual((await listed('old4'))!.accounts, []);
  });

  test('a start respells stored accounts, so one account spelled two ways is not two people', async () => {
    await store('old5', 'Anna', 'Discord:555');
    await store('old6', 'Bea', ' telegram : 99');
    const [respelled] = await normaliseStoredPeople(fake.journal, ['mythos'], Date.now());
    assert.deepEqual(respelled, { bot: 'mythos', rewritten: 2, conflicts: [] });
    assert.deepEqual((await listed('old5'))!.accounts, [{ discord_user_id: '555' }]);
    assert.deepEqual((await listed('old6'))!.accounts, [{ user_id: 'telegram:99' }]);
    const created = await call('POST', '/bots/mythos/people', {
      name: 'Someone else',
      accounts: [{ discord_user_id: '555' }],
    });
    assert.equal(created.status, 409, JSON.stringify(created.json));
  });

  test('before a start respells it, an account stored as Discord:556 is still one person: linking it elsewhere is a 409', async () => {
    await store('old7', 'Dina', 'Discord:556');
    await store('old8', 'Eve', 'telegram:1');
    const created = await call('POST', '/bots/mythos/people', {
      name: 'Someone else',
      accounts: [{ discord_user_id: '556' }],
    });
    assert.equal(created.status, 409, JSON.stringify(created.json));
    assert.match(created.json.error.message, /already linked to Dina/);
    const added = await call('PATCH', '/bots/mythos/people/old8', { add: [{ user_id: 'discord:556' }] });
    assert.equal(added.status, 409, JSON.stringify(added.json));
  });

  test('a speakerAliases key that is a client id (user-42) seeds only that id, which the owner can unlink', async () => {
    await seedPeople(
      fake.journal,
      { mythos: testBot('mythos', { speakerAliases: { 'user-42': 'Cleo' } }) },
      1,
    );
    const cleo = (
      (await call('GET', '/bots/mythos/people')).json.people as { id: string; name: string }[]
    ).find((person) => person.name === 'Cleo')!;
    assert.deepEqual((await listed(cleo.id))!.accounts, [{ user_id: 'user-42' }]);
    const patch = await call('PATCH', `/bots/mythos/people/${cleo.id}`, { remove: [{ user_id: 'user-42' }] });
    assert.equal(patch.status, 200, JSON.stringify(patch.json));
  });
});
