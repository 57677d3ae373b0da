/**
 * @module The people scenario's refused codes, said through Hermes by one Telegram account (issue 33): a wrong
 * format, its own code, another bot's, an expired and a used one are each a 400 on `code` saying which; the
 * fifth failure is the last 400, and the next redeem, even of a right code, is a 429 (the code stays usable).
 */
import assert from 'node:assert/strict';
import { hermesKey } from '../../../src/http/test-support/test-api-keys.js';
import { openJournal } from '../../../src/journal/open-journal.js';
import { hashLinkCode, newLinkCode, normaliseLinkCode } from '../../../src/people/link-code.js';
import { call, type PeopleWorld } from './people-world.js';

const REDEEMER = 'telegram:9999';

export async function assertRefusedCodes(world: PeopleWorld): Promise<void> {
  const ask = async (userId: string, bot = 'mythos') => {
    const given = await call(
      world.a,
      'POST',
      `/bots/${bot}/link-codes`,
      { account: { user_id: userId } },
      hermesKey,
    );
    assert.equal(given.status, 201, JSON.stringify(given.json));
    return given.json.code as string;
  };
  const redeem = (code: string, userId = REDEEMER) =>
    call(
      world.a,
      'POST',
      '/bots/mythos/link-codes/redeem',
      { code, account: { user_id: userId } },
      hermesKey,
    );
  const refused = async (code: string, reason: RegExp, what: string) => {
    const answer = await redeem(code);
    assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.json)}`);
    assert.equal(answer.json.error.field, 'code', what);
    assert.match(answer.json.error.message, reason, what);
  };

  // A wrong format is refused before anything is looked up, and is not counted as a failed redeem.
  await refused('hello', /expected the 10-character code/, 'wrong format');
  await refused(await ask(REDEEMER), /asked for by this same account/, 'its own code');
  await refused(await ask('telegram:1111', 'other'), /given for another bot, not "mythos"/, "another bot's");

  // A code asked for 11 minutes ago (planted in the journal, as the service keeps it: only its hash).
  const expired = newLinkCode();
  const journal = await openJournal(world.h.service.config);
  try {
    await journal.people.saveLinkCode(
      {
        codeHash: hashLinkCode(normaliseLinkCode(expired)!),
        bot: 'mythos',
        account: { kind: 'user', value: 'telegram:1112' },
        expiresAt: Date.now() - 60_000,
        usedAt: null,
      },
      Date.now() - 11 * 60_000,
    );
  } finally {
    await journal.close();
  }
  await refused(expired, /has expired/, 'expired');

  const used = await ask('telegram:1113');
  assert.equal((await redeem(used, 'telegram:1114')).status, 200, 'the first redeem links');
  await refused(used, /already used/, 'used');

  // The fifth failure (a code this service never gave) is still a 400; the next redeem is a 429.
  await refused('ZZZZZ-ZZZZZ', /not a code this service gave/, 'unknown');
  const right = await ask('telegram:1115');
  const blocked = await redeem(right);
  assert.equal(blocked.status, 429, JSON.stringify(blocked.json));
  assert.equal(blocked.json.error.code, 'too_many_attempts');
  assert.equal((await redeem(right, 'telegram:1116')).status, 200, 'the right code stays usable by others');
}
