/**
 * @module Accounts as the people requests read them: one account however it is spelled (spaces around it, a
 * Discord user as `discord_user_id` or `user_id discord:`), and a 400 naming the field for an id that names no
 * account; a change that both links and unlinks one account is refused naming both places.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from '../errors/memory-pool-error.js';
import { parseWireRequest } from './parse-wire-request.js';
import { createPersonSchema, updatePersonSchema } from './people.js';

const accountsOf = (accounts: object[]) =>
  parseWireRequest(createPersonSchema, { name: 'Anna', accounts }).accounts;
const refusal = (run: () => unknown): { field: string | undefined; message: string } => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    return { field: error.field, message: error.message };
  }
  assert.fail('expected a 400');
};

test('one account however it is spelled: trimmed, the Discord platform in any case, spaces around the colon', () => {
  assert.deepEqual(
    accountsOf([
      { discord_user_id: ' 1234 ' },
      { user_id: ' Discord: 1234' },
      { user_id: 'telegram : 5678 ' },
      { persona: '  Anna ' },
    ]),
    [
      { discord_user_id: '1234' },
      { user_id: 'discord:1234' },
      { user_id: 'telegram:5678' },
      { persona: 'Anna' },
    ],
  );
});

test('an id that names no account is a 400 naming the field', () => {
  const cases: [object, string, RegExp][] = [
    [{ discord_user_id: '12a4' }, 'accounts[0].discord_user_id', /digits only/],
    [{ discord_user_id: '   ' }, 'accounts[0].discord_user_id', /empty/],
    [{ user_id: 'discord:abc' }, 'accounts[0].user_id', /after "discord:" .*digits only/],
    [{ user_id: 'telegram:' }, 'accounts[0].user_id', /after "telegram:"/],
    [{ user_id: 'telegram:  ' }, 'accounts[0].user_id', /after "telegram:"/],
    [{ user_id: ':5678' }, 'accounts[0].user_id', /platform before ":"/],
    [{ persona: ' ' }, 'accounts[0].persona', /empty/],
  ];
  for (const [account, field, message] of cases) {
    const refused = refusal(() => accountsOf([account]));
    assert.equal(refused.field, field, JSON.stringify(account));
    assert.match(refused.message, message, JSON.stringify(account));
  }
});

test('the same account in add and remove is a 400 naming both, however each spelled it', () => {
  const refused = refusal(() =>
    parseWireRequest(updatePersonSchema, {
      add: [{ user_id: 'slack:U1' }, { discord_user_id: '42' }],
      remove: [{ user_id: 'discord:42' }],
    }),
  );
  assert.equal(refused.field, 'add[1]');
  assert.match(refused.message, /^add\[1\]: names the same account as remove\[0\] \(discord:42\)/);
  assert.doesNotThrow(() =>
    parseWireRequest(updatePersonSchema, {
      add: [{ user_id: 'slack:U1' }],
      remove: [{ user_id: 'slack:U2' }],
    }),
  );
});
