/** @module The /save wire schema refuses U+0000 in ids and the source, naming the field (a Postgres journal cannot store it). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { saveRequestSchema } from './save-request.js';

const valid = { bot: 'b', messages: [{ speaker_kind: 'user', text: 'hi\u0000there', message_id: 'm1' }] };

test('U+0000 in a message id, a user, channel or guild id, or the source is refused naming the field', () => {
  assert.equal(saveRequestSchema.safeParse(valid).success, true, 'U+0000 in the text is kept');
  const cases: [object, string][] = [
    [{ message_id: 'm\u00001' }, 'messages.0.message_id'],
    [{ user_id: 'u\u0000' }, 'messages.0.user_id'],
    [{ channel_id: 'c\u0000' }, 'messages.0.channel_id'],
    [{ guild_id: 'g\u0000' }, 'messages.0.guild_id'],
    [{ discord_user_id: 'd\u0000' }, 'messages.0.discord_user_id'],
  ];
  for (const [field, path] of cases) {
    const result = saveRequestSchema.safeParse({ ...valid, messages: [{ ...valid.messages[0], ...field }] });
    assert.equal(result.success, false, path);
    assert.deepEqual(
      result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]),
      [[path, 'must not contain U+0000 (a NUL character)']],
    );
  }
  const source = saveRequestSchema.safeParse({ ...valid, source: 'a\u0000' });
  assert.deepEqual(
    source.error?.issues.map((issue) => issue.path.join('.')),
    ['source'],
  );
});
