/**
 * @module The link-code cases of the journal contract (people-contract.ts calls them, on every backend): a code is
 * used once on any connection, one live code per account, and an attempt's limit check, try and count are one step.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Journal } from '../journal.js';
import type { AccountKey, RedeemLimits } from '../journal-people.js';

const user = (value: string): AccountKey => ({ kind: 'user', value });
const LIMITS: RedeemLimits = { since: 0, account: 3, caller: 3 };

/** Defines the cases; `connections` gives the suite's two connections once they are open. */
export function defineLinkCodeCases(
  connections: () => { a: Journal; b: Journal },
  newBot: () => string,
): void {
  test('link codes: a code is used once, on any connection; a release gives back only its own use', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const code = { codeHash: `h-${bot}`, bot, account: user('discord:1'), expiresAt: 1000, usedAt: null };
    await a.people.saveLinkCode(code, 0);
    const redeemer = { bot, account: user('telegram:1'), caller: 'hermes' };
    const redeem = (j: Journal, at: number, who = redeemer, hash = code.codeHash) =>
      j.people.attemptLinkCode(hash, who, 'redeem', at, LIMITS);
    // Said by the issuing account, for another bot, or too late: read, wrong, and left unused.
    const issuer = { ...redeemer, account: user('discord:1'), caller: 'discord' };
    assert.deepEqual(await redeem(b, 100, issuer), { code, wrong: true });
    assert.deepEqual(await redeem(b, 100, { ...redeemer, bot: newBot(), caller: 'x' }), {
      code,
      wrong: true,
    });
    assert.deepEqual(await redeem(b, 1000, { ...redeemer, caller: 'y' }), { code, wrong: true });
    assert.deepEqual(await redeem(b, 500), { code, wrong: false });
    assert.deepEqual(await redeem(a, 600), { code: { ...code, usedAt: 500 }, wrong: true });
    assert.deepEqual(await redeem(a, 600, { ...redeemer, caller: 'z' }, 'unknown'), {
      code: undefined,
      wrong: true,
    });
    // A status read changes nothing and is right only for the account that asked for the code.
    const status = (who: typeof redeemer) =>
      b.people.attemptLinkCode(code.codeHash, who, 'status', 650, LIMITS);
    assert.deepEqual(await status(issuer), { code: { ...code, usedAt: 500 }, wrong: false });
    assert.deepEqual(await status({ ...redeemer, caller: 'w' }), {
      code: { ...code, usedAt: 500 },
      wrong: true,
    });
    // A release names the moment of its own use: another moment leaves the code used; its own gives it back.
    await b.people.releaseLinkCode(code.codeHash, 600);
    assert.deepEqual(await redeem(a, 700, { ...redeemer, caller: 'v' }), {
      code: { ...code, usedAt: 500 },
      wrong: true,
    });
    await b.people.releaseLinkCode(code.codeHash, 500);
    assert.deepEqual(await redeem(a, 700, { ...redeemer, caller: 'u' }), { code, wrong: false });
  });

  test('link codes: asking again retires the account’s earlier unused code', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const code = (n: number, account = user('discord:1')) => ({
      codeHash: `h${n}-${bot}`,
      bot,
      account,
      expiresAt: 1000,
      usedAt: null,
    });
    await a.people.saveLinkCode(code(1), 0);
    await a.people.saveLinkCode(code(2, user('discord:2')), 10);
    await b.people.saveLinkCode(code(3), 20);
    const status = async (n: number, account = user('discord:1')) =>
      b.people.attemptLinkCode(code(n).codeHash, { bot, account, caller: 'discord' }, 'status', 30, LIMITS);
    assert.deepEqual(await status(1), { code: { ...code(1), expiresAt: 20 }, wrong: false });
    assert.deepEqual(await status(3), { code: code(3), wrong: false });
    assert.deepEqual(
      await status(2, user('discord:2')),
      { code: code(2, user('discord:2')), wrong: false },
      'another account keeps its code',
    );
  });

  test('link codes: a code given back after a failed link, once a newer code was asked, comes back expired', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const account = user('discord:1');
    const code = (n: number) => ({ codeHash: `r${n}-${bot}`, bot, account, expiresAt: 1000, usedAt: null });
    await a.people.saveLinkCode(code(1), 0);
    const redeemer = { bot, account: user('telegram:2'), caller: 'hermes' };
    const redeemed = await a.people.attemptLinkCode(code(1).codeHash, redeemer, 'redeem', 10, LIMITS);
    assert.equal('wrong' in redeemed && redeemed.wrong, false);
    // While that link is made the account asks again; then the link fails and the first code is given back.
    await b.people.saveLinkCode(code(2), 20);
    await a.people.releaseLinkCode(code(1).codeHash, 10);
    const status = async (n: number) =>
      b.people.attemptLinkCode(code(n).codeHash, { bot, account, caller: 'discord' }, 'status', 30, LIMITS);
    assert.deepEqual(await status(1), { code: { ...code(1), expiresAt: 20 }, wrong: false });
    assert.deepEqual(await status(2), { code: code(2), wrong: false });
  });

  test('link codes: wrong attempts count per account through one caller and distinct accounts per caller, within the window', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const who = { bot, account: user('telegram:9'), caller: 'hermes' };
    const attempt = (j: Journal, at: number, w = who, limits = LIMITS) =>
      j.people.attemptLinkCode('nothing', w, 'redeem', at, limits);
    const counts = (byAccount: number, byCaller: number) => ({ limited: { byAccount, byCaller } });
    for (const at of [100, 200, 300])
      assert.equal((await attempt(at % 200 === 0 ? b : a, at)).limited, undefined);
    assert.deepEqual(await attempt(b, 310), counts(3, 1), "the account's 4th wrong code is refused unread");
    // The same account through another key, or through a key whose name starts this one's, counts apart.
    assert.equal((await attempt(a, 320, { ...who, caller: 'herme' })).limited, undefined);
    assert.equal((await attempt(a, 330, { ...who, caller: 'discord' })).limited, undefined);
    // Older failures drop out of the window.
    assert.equal((await attempt(a, 340, who, { ...LIMITS, since: 150 })).limited, undefined);
    // The key counts accounts: two more failing accounts reach its limit for every account.
    for (const n of [10, 11]) {
      assert.equal((await attempt(b, 400, { ...who, account: user(`telegram:${n}`) })).limited, undefined);
    }
    assert.deepEqual(await attempt(a, 410, { ...who, account: user('telegram:12') }), counts(0, 3));
    // Another bot counts apart; a failure prunes every failure older than the window, of any bot.
    const elsewhere = { ...who, bot: newBot() };
    assert.equal((await attempt(a, 420, elsewhere)).limited, undefined);
    await attempt(b, 5_000, { ...elsewhere, account: user('telegram:11') }, { ...LIMITS, since: 1_000 });
    const limits = { ...LIMITS, account: 1, caller: 1 };
    assert.equal((await attempt(a, 5_001, who, limits)).limited, undefined, 'pruned by another bot');
  });

  test('link codes: parallel wrong attempts for one account pass the check no more often than the limit allows', async () => {
    const { a, b } = connections();
    const who = { bot: newBot(), account: user('telegram:9'), caller: 'hermes' };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).people.attemptLinkCode(`wrong-${i}`, who, 'redeem', 100, LIMITS),
      ),
    );
    assert.equal(results.filter((r) => r.limited === undefined).length, LIMITS.account);
    assert.equal(results.filter((r) => r.limited !== undefined).length, 20 - LIMITS.account);
  });
}
