/**
 * @module The link-code redeem limits in-process: 5 wrong codes for one account through one key, 50 accounts
 * with wrong codes through one key (naming a new account per guess gains nothing), one user's few accounts
 * never lock the interface's other users out, and another key's wrong guesses never lock an account out of
 * redeeming through its own interface.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../../config/test-support/test-bot.js';
import { MAX_FAILED_REDEEMS, MAX_FAILING_ACCOUNTS_PER_KEY } from '../../people/link-code.js';
import { createJsonCaller } from '../test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../test-support/test-api-keys.js';

describe('link-code redeem limits', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const redeem = (code: string, account: object, key = hermesKey) =>
    call('POST', '/bots/mythos/link-codes/redeem', { code, account }, key);
  const askCode = async (account: object, key = discordKey) =>
    (await call('POST', '/bots/mythos/link-codes', { account }, key)).json.code as string;

  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos')],
      config: { apiKeys: [ownerKey, discordKey, hermesKey] },
    });
  });
  after(() => fake.close());

  test("another key's wrong guesses for an account do not lock that account out of its own interface", async () => {
    const victim = { discord_user_id: '4242' };
    for (let i = 0; i < MAX_FAILED_REDEEMS; i++) {
      assert.equal((await redeem('ABCDE-FGHJK', victim, hermesKey)).status, 400);
    }
    const locked = await redeem('ABCDE-FGHJK', victim, hermesKey);
    assert.deepEqual([locked.status, locked.json.error.code], [429, 'too_many_attempts']);
    // The victim, through Discord, says a right code: linked.
    const code = await askCode({ user_id: 'telegram:4242' }, hermesKey);
    const own = await redeem(code, victim, discordKey);
    assert.equal(own.status, 200, JSON.stringify(own.json));
  });

  test("one user's accounts spending all their wrong codes leave the interface's other users linking", async () => {
    for (let alt = 0; alt < 10; alt++) {
      for (let i = 0; i < MAX_FAILED_REDEEMS; i++) {
        const wrong = await redeem('ABCDE-FGHJK', { discord_user_id: `90${alt}` }, discordKey);
        assert.equal(wrong.status, 400, `alt ${alt} guess ${i}`);
      }
    }
    const code = await askCode({ user_id: 'telegram:777' }, hermesKey);
    const other = await redeem(code, { discord_user_id: '777' }, discordKey);
    assert.equal(other.status, 200, JSON.stringify(other.json));
  });

  test('one key naming a new account for each wrong guess is refused after 50 accounts within the hour', async () => {
    const fresh = await createFakeServiceDeps({ config: { apiKeys: [ownerKey, discordKey, hermesKey] } });
    const callFresh = createJsonCaller(() => fresh.app, ownerKey);
    try {
      for (let i = 0; i < MAX_FAILING_ACCOUNTS_PER_KEY; i++) {
        const wrong = await callFresh(
          'POST',
          '/bots/mythos/link-codes/redeem',
          { code: 'ABCDE-FGHJK', account: { user_id: `telegram:rot${i}` } },
          hermesKey,
        );
        assert.equal(wrong.status, 400, `guess ${i}`);
      }
      const asked = await callFresh(
        'POST',
        '/bots/mythos/link-codes',
        { account: { discord_user_id: '99' } },
        discordKey,
      );
      const next = await callFresh(
        'POST',
        '/bots/mythos/link-codes/redeem',
        { code: asked.json.code, account: { user_id: 'telegram:new-name' } },
        hermesKey,
      );
      assert.deepEqual([next.status, next.json.error.code], [429, 'too_many_attempts']);
      assert.match(next.json.error.message, /through this interface's key/);
      // Another key is not held back by it, and the code was not used up.
      const fine = await callFresh(
        'POST',
        '/bots/mythos/link-codes/redeem',
        { code: asked.json.code, account: { discord_user_id: '100' } },
        discordKey,
      );
      assert.equal(fine.status, 200, JSON.stringify(fine.json));
    } finally {
      await fresh.close();
    }
  });
});
