/**
 * @module What the account that asked for a link code learns (`POST /bots/{bot}/link-codes/status`), and what an
 * interface key never learns: the other accounts of a person, in a redeem, an unlink or a 409.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashLinkCode, newLinkCode, normaliseLinkCode } from '../../people/link-code.js';
import { createJsonCaller } from '../test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../test-support/test-api-keys.js';

describe('link code status and what interface keys see of a person', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const status = (code: string, account: object, key = discordKey) =>
    call('POST', '/bots/mythos/link-codes/status', { code, account }, key);

  before(async () => {
    fake = await createFakeServiceDeps({ config: { apiKeys: [ownerKey, discordKey, hermesKey] } });
  });
  after(() => fake.close());

  test('the asking account sees its code waiting, then redeemed into whom; nobody else can ask', async () => {
    const anna = { discord_user_id: '7001' };
    const asked = await call('POST', '/bots/mythos/link-codes', { account: anna }, discordKey);
    const waiting = await status(asked.json.code, anna);
    assert.deepEqual(waiting.json, { status: 'waiting', expires_at: asked.json.expires_at });
    // Another account (or the redeemer) asking about the code is answered as a wrong code.
    const other = await status(asked.json.code, { user_id: 'telegram:7001' }, hermesKey);
    assert.deepEqual([other.status, other.json.error.field], [400, 'code']);
    const redeemed = await call(
      'POST',
      '/bots/mythos/link-codes/redeem',
      { code: asked.json.code, account: { user_id: 'telegram:7001' } },
      hermesKey,
    );
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.json));
    const learnt = await status(asked.json.code.toLowerCase(), anna);
    assert.equal(learnt.status, 200, JSON.stringify(learnt.json));
    assert.equal(learnt.json.status, 'redeemed');
    assert.deepEqual(learnt.json.person, { id: redeemed.json.id, name: redeemed.json.name });
    assert.ok(Date.parse(learnt.json.redeemed_at) <= Date.now());
    assert.equal((await status('12345', anna)).json.error.field, 'code');
  });

  test('a code left unsaid past its 10 minutes is expired', async () => {
    const code = newLinkCode();
    await fake.journal.people.saveLinkCode(
      {
        codeHash: hashLinkCode(normaliseLinkCode(code)!),
        bot: 'mythos',
        account: { kind: 'user', value: 'discord:7201' },
        expiresAt: Date.now() - 1,
        usedAt: null,
      },
      Date.now(),
    );
    const expired = await status(code, { discord_user_id: '7201' });
    assert.deepEqual([expired.status, expired.json.status], [200, 'expired']);
  });

  test('a 409 on a redeem names no other person to an interface key; the owner sees who', async () => {
    const dee = await call('POST', '/bots/mythos/people', {
      name: 'Dee',
      accounts: [{ discord_user_id: '7101' }],
    });
    const tee = await call('POST', '/bots/mythos/people', {
      name: 'Tee',
      accounts: [{ user_id: 'telegram:7102' }],
    });
    const asked = await call(
      'POST',
      '/bots/mythos/link-codes',
      { account: { discord_user_id: '7101' } },
      discordKey,
    );
    const body = { code: asked.json.code, account: { user_id: 'telegram:7102' } };
    const refused = await call('POST', '/bots/mythos/link-codes/redeem', body, hermesKey);
    assert.deepEqual([refused.status, refused.json.error.code], [409, 'account_linked']);
    for (const secret of ['Dee', 'Tee', dee.json.id, tee.json.id, '7101']) {
      assert.ok(!refused.json.error.message.includes(secret), `${secret} in ${refused.json.error.message}`);
    }
    const asOwner = await call('POST', '/bots/mythos/link-codes/redeem', body);
    assert.equal(asOwner.status, 409);
    assert.match(asOwner.json.error.message, /Tee/);
  });
});
