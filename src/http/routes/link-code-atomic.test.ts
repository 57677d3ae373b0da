/**
 * @module Link codes under concurrency, on both journal backends: parallel wrong guesses for one account are
 * checked and counted one at a time (at most 5 are even tried; the rest are 429 before the code is read), and an
 * account has one live code: asking again retires the earlier one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../../config/test-support/test-bot.js';
import type { Journal } from '../../journal/journal.js';
import { openPostgresJournal } from '../../journal/postgres/postgres-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../../journal/test-support/start-postgres.js';
import { MAX_FAILED_REDEEMS } from '../../people/link-code.js';
import { createJsonCaller } from '../test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../test-support/test-api-keys.js';

const backends: { name: string; skip: string | false; open: () => Promise<Journal | undefined> }[] = [
  { name: 'SQLite', skip: false, open: async () => undefined },
  {
    name: 'Postgres',
    skip: skipWithoutPostgres,
    open: async () => {
      postgres = await startPostgres();
      return openPostgresJournal(await postgres.createDatabase('codes'));
    },
  },
];
let postgres: TestPostgres | undefined;
after(() => postgres?.stop());

for (const backend of backends) {
  describe(`link codes under concurrency (${backend.name})`, { skip: backend.skip }, () => {
    let fake: FakeServiceDeps;
    const call = createJsonCaller(() => fake.app, ownerKey);
    const askCode = async (account: object, key = discordKey) =>
      (await call('POST', '/bots/mythos/link-codes', { account }, key)).json.code as string;
    const redeem = (code: string, account: object, key = hermesKey) =>
      call('POST', '/bots/mythos/link-codes/redeem', { code, account }, key);

    before(async () => {
      const journal = await backend.open();
      fake = await createFakeServiceDeps({
        bots: [testBot('mythos')],
        config: { apiKeys: [ownerKey, discordKey, hermesKey] },
        ...(journal === undefined ? {} : { journal }),
      });
    });
    after(() => fake?.close());

    test('20 parallel guesses for one account: at most 5 are tried (400), the rest 429, the right one among the last too', async () => {
      const code = await askCode({ discord_user_id: '31' });
      const guesser = { user_id: 'telegram:666' };
      // 19 wrong codes, then the right one: before the check and the count were one step, every guess was tried.
      const guesses = Array.from({ length: 20 }, (_, i) =>
        i === 19 ? code : `ABCDE-${'FGHJK'.slice(0, 4)}${i % 10}`,
      );
      const answers = await Promise.all(guesses.map((guess) => redeem(guess, guesser)));
      const statuses = answers.map((a) => a.status);
      assert.ok(statuses.filter((s) => s === 400).length <= MAX_FAILED_REDEEMS, statuses.join(' '));
      assert.equal(statuses.filter((s) => s === 429).length, 20 - statuses.filter((s) => s === 400).length);
      assert.equal(statuses[19], 429, 'the right code, guessed after the limit, is refused untried');
      // Untried, the code still links its rightful other account.
      const rightful = await redeem(code, { discord_user_id: '32' }, discordKey);
      assert.equal(rightful.status, 200, JSON.stringify(rightful.json));
    });

    test('asking for a code again retires the earlier unused one', async () => {
      const account = { discord_user_id: '41' };
      const first = await askCode(account);
      const second = await askCode(account);
      const stale = await redeem(first, { user_id: 'telegram:41' });
      assert.deepEqual([stale.status, stale.json.error.field], [400, 'code']);
      assert.match(stale.json.error.message, /has expired .*newer one/);
      const status = await call(
        'POST',
        '/bots/mythos/link-codes/status',
        { code: first, account },
        discordKey,
      );
      assert.equal(status.json.status, 'expired');
      const fresh = await redeem(second, { user_id: 'telegram:41' });
      assert.equal(fresh.status, 200, JSON.stringify(fresh.json));
    });
  });
}
