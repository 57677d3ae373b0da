/** @module A swapped key table applies to later requests only: a table already read keeps answering. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discordKey, readerKey } from '../http/test-support/test-api-keys.js';
import { authenticate } from './api-key-auth.js';
import { LiveApiKeys } from './live-api-keys.js';

test('a replaced table applies to later reads; a table already read keeps answering as it did', () => {
  const live = new LiveApiKeys([discordKey, readerKey]);
  const inFlight = live.current;
  live.replace([readerKey]);
  assert.equal(inFlight.match(discordKey.key), discordKey);
  assert.equal(live.current.match(discordKey.key), undefined);
  assert.equal(live.current.match(readerKey.key), readerKey);
  const { keys, match } = live.current;
  assert.throws(() => authenticate(keys, match, discordKey.key), { code: 'unauthorized' });
});
