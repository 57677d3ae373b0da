import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLoopbackHost } from './is-loopback-host.js';

test('loopback addresses count as local in every spelling', () => {
  for (const host of [
    '127.0.0.1',
    '127.8.9.10',
    'localhost',
    'LOCALHOST',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
  ]) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'example.com', '::ffff:10.0.0.1']) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});
