/**
 * @module `/memory forget-me` by a linked person (docs/people.md): it forgets every message of every linked
 * account, in every source (Hermes' too), naming each account and its count before and after; a user linked to
 * nobody is answered as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type DiscordHarness,
  HELEN,
  messagePayload,
  SAM,
  startDiscordHarness,
} from '../test-support/discord-harness.js';
import { ask, command, press } from '../test-support/discord-interactions.js';

describe('/memory forget-me by a linked person', () => {
  let h: DiscordHarness;
  before(async () => {
    h = await startDiscordHarness();
    h.answerReplyEdits();
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Helen: my dog Biscuit loves the beach' }));
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Helen: I work night shifts' }));
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Sam: I collect vinyl records', author: SAM }));
    const saved = await h.service.post('/save', {
      bot: 'mythos',
      source: 'hermes',
      messages: [
        {
          message_id: 'tg-1',
          speaker_kind: 'user',
          user_id: 'telegram:5678',
          speaker_name: 'Helen T',
          text: 'Helen T: my passport number is in the blue drawer',
        },
      ],
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await h.flush();
  });
  after(() => h.close());

  test('an unlinked user is asked about their Discord messages only', async () => {
    const asked = await ask(h, command({ user: SAM }, 'forget-me'));
    assert.match(asked.callback?.data?.content ?? '', /remembers 1 message of yours/);
  });

  test('a linked user forgets every linked account, each named with its count', async () => {
    const linked = await h.service.post('/bots/mythos/people', {
      name: 'Helen',
      accounts: [{ discord_user_id: HELEN.id }, { user_id: 'telegram:5678' }],
    });
    assert.equal(linked.status, 201, JSON.stringify(linked.json));
    const asked = await ask(h, command({ user: HELEN }, 'forget-me'));
    const content = asked.callback?.data?.content ?? '';
    assert.match(content, /You are linked as Helen/);
    assert.match(content, new RegExp(`3 messages: discord:${HELEN.id} \\(2\\), telegram:5678 \\(1\\)`));
    const [confirm] = asked.callback?.data?.components?.[0]?.components ?? [];
    assert.equal(confirm?.label, 'Forget 3 messages');
    assert.match((await h.recall('passport blue drawer')).join('\n'), /passport/, 'nothing before confirming');

    const confirmed = await ask(h, press({ user: HELEN }, confirm!.custom_id));
    assert.equal(
      confirmed.callback?.data?.content,
      `Forgotten: 3 messages: discord:${HELEN.id} (2), telegram:5678 (1). They will not be recalled again.`,
    );
    const left = (await h.recall('dog Biscuit night shifts passport drawer vinyl')).join('\n');
    assert.doesNotMatch(left, /Biscuit|night shifts|passport/);
    assert.match(left, /vinyl/, "Sam's memories stay");
  });
});
