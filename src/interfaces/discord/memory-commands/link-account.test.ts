import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type DiscordHarness, HELEN, SAM, startDiscordHarness } from '../test-support/discord-harness.js';
import { ask, command } from '../test-support/discord-interactions.js';

const EPHEMERAL = 64;
const CODE = /\*\*([0-9A-Z]{5}-[0-9A-Z]{5})\*\*/;
const link = (user: typeof HELEN, code?: string) =>
  command({ user }, 'link', code === undefined ? [] : [{ name: 'code', type: 3, value: code }]);
const KAI = { id: '500000000000000003', username: 'kai', global_name: 'Kai' };
const NOOR = { id: '500000000000000004', username: 'noor', global_name: 'Noor' };

const KAI_TOO = { id: '500000000000000005', username: 'kai2', global_name: 'Kai Two' };

describe('/memory link', () => {
  let h: DiscordHarness;
  /** The content of the latest edit of an interaction's answer matching `wanted`, once there is one. */
  const waitForEdit = async (token: string, wanted: RegExp): Promise<string> => {
    for (let i = 0; i < 300; i += 1) {
      const edits = h.fake.calls
        .filter((c) => c.method === 'PATCH' && c.path.includes(`/${token}/`))
        .map((c) => (c.body as { content?: string }).content ?? '');
      const found = edits.find((content) => wanted.test(content));
      if (found !== undefined) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail(`no edit matching ${wanted}`);
  };
  before(async () => {
    h = await startDiscordHarness();
    h.answerReplyEdits();
  });
  after(() => h.close());

  const people = async () => {
    const response = await fetch(`${h.service.url}/bots/mythos/people`);
    return (await response.json()) as { people: { name: string; accounts: Record<string, string>[] }[] };
  };

  test('without a code it answers the caller alone with a code that a Telegram account redeems', async () => {
    const { callback, edit } = await ask(h, link(HELEN));
    assert.equal(callback?.data?.flags, EPHEMERAL, 'only Helen sees her code');
    const code = CODE.exec(edit?.content ?? '')?.[1];
    assert.ok(code, `a code in the answer: ${edit?.content}`);
    const redeemed = await h.service.post('/bots/mythos/link-codes/redeem', {
      code,
      account: { user_id: 'telegram:5678' },
    });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.json));
    const helen = (await people()).people.find((p) => p.accounts.some((a) => a.discord_user_id === HELEN.id));
    assert.deepEqual(helen?.accounts, [{ discord_user_id: HELEN.id }, { user_id: 'telegram:5678' }]);
  });

  test('the answer with the code is edited once the code is said, so the asker learns it where they asked', async () => {
    const interaction = link(KAI_TOO);
    const { edit } = await ask(h, interaction);
    const code = CODE.exec(edit?.content ?? '')?.[1];
    const redeemed = await h.service.post('/bots/mythos/link-codes/redeem', {
      code,
      account: { user_id: 'telegram:kai2' },
    });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.json));
    const said = await waitForEdit(interaction.token, /was said from your other account/);
    assert.match(said, new RegExp(`^Your link code \\*\\*${code}\\*\\* was said .* as one person, \\*\\*`));
    assert.match(said, /If you did not say it yourself/);
  });

  test('with a code it links the caller with the account that asked for it', async () => {
    const given = await h.service.post('/bots/mythos/link-codes', { account: { user_id: 'slack:T1-U2' } });
    assert.equal(given.status, 201);
    const { callback, edit } = await ask(h, link(SAM, given.json.code.toLowerCase()));
    assert.equal(callback?.data?.flags, EPHEMERAL);
    assert.match(
      edit?.content ?? '',
      /^Linked: .* one person, \*\*slack:T1-U2\*\*, here and as your other account\.$/,
    );
    const sam = (await people()).people.find((p) => p.accounts.some((a) => a.discord_user_id === SAM.id));
    assert.deepEqual(sam?.accounts.length, 2);
  });

  test('refusals are private and plain: own code, used code, not a code', async () => {
    const own = CODE.exec((await ask(h, link(KAI))).edit?.content ?? '')?.[1];
    const mine = await ask(h, link(KAI, own));
    assert.equal(mine.callback?.data?.flags, EPHEMERAL);
    assert.equal(
      mine.edit?.content,
      'That code was asked for by this same account: say it on your other account.',
    );

    const given = await h.service.post('/bots/mythos/link-codes', { account: { user_id: 'telegram:1' } });
    await ask(h, link(KAI, given.json.code));
    const again = await ask(h, link(NOOR, given.json.code));
    assert.equal(again.edit?.content, 'That code was already used (a code links once); ask for a new one.');

    const typo = await ask(h, link(NOOR, 'hello'));
    assert.match(typo.edit?.content ?? '', /^That is not a link code: expected the 10-character code/);
    assert.equal(
      (await people()).people.filter((p) => p.accounts.some((a) => a.discord_user_id === NOOR.id)).length,
      0,
    );
  });

  test('an account linked to someone else is refused naming nobody', async () => {
    const zed = { id: '500000000000000006', username: 'zed', global_name: 'Zed' };
    await h.service.post('/bots/mythos/people', { name: 'Dee', accounts: [{ user_id: 'telegram:dee' }] });
    await h.service.post('/bots/mythos/people', { name: 'Zed', accounts: [{ discord_user_id: zed.id }] });
    const given = await h.service.post('/bots/mythos/link-codes', { account: { user_id: 'telegram:dee' } });
    const refused = await ask(h, link(zed, given.json.code));
    assert.equal(
      refused.edit?.content,
      "One of these accounts is already linked to someone else: merging two people is the owner's call. Ask the owner to unlink it first.",
    );
  });

  test('after 5 wrong codes within an hour the caller is told to wait', async () => {
    const wrong = (n: number) => `ZZZZZ-ZZZZ${n}`;
    for (let n = 0; n < 4; n += 1) {
      assert.match(
        (await ask(h, link(NOOR, wrong(n)))).edit?.content ?? '',
        /^That code is not a code this service gave/,
      );
    }
    const tooMany = await ask(h, link(NOOR, wrong(9)));
    assert.equal(tooMany.callback?.data?.flags, EPHEMERAL);
    assert.match(
      tooMany.edit?.content ?? '',
      /^Too many wrong codes from your account within an hour: wait an hour/,
    );
  });
});
