import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProxyReposts } from './proxy-reposts.js';

const GRACE = 5_000;

test('a repost is the original with its proxy tags stripped, before or after, or the same text', () => {
  const proxies = new ProxyReposts(GRACE);
  proxies.noteRecorded('m1', 'c1', 'l: hello there', 0);
  proxies.noteRecorded('m2', 'c1', 'see you soon -b', 10);
  proxies.noteRecorded('m3', 'c1', '[brackets]', 20);
  proxies.noteRecorded('m4', 'c1', 'plain autoproxy', 30);
  for (const text of ['hello there', 'see you soon', 'brackets', 'plain autoproxy']) {
    assert.equal(proxies.noteWebhookPost('c1', text, 100), true, text);
  }
  for (const id of ['m1', 'm2', 'm3', 'm4']) assert.equal(proxies.wasProxied(id), true, id);
});

test('a short webhook post inside someone’s longer message is not a repost of it', () => {
  const proxies = new ProxyReposts(GRACE);
  proxies.noteRecorded('took', 'c1', 'I took the book back', 0);
  proxies.noteRecorded('day', 'c1', 'lol, what a day', 10);
  assert.equal(proxies.noteWebhookPost('c1', 'ok', 100), false, '"ok" only appears inside words');
  assert.equal(proxies.noteWebhookPost('c1', 'lol', 100), false, 'the rest is a clause, not a tag');
  assert.equal(proxies.wasProxied('took'), false);
  assert.equal(proxies.wasProxied('day'), false, 'deleting it later is still a forget');
});

test('the tagged original is found among messages that merely contain the text, and is matched once', () => {
  const proxies = new ProxyReposts(GRACE);
  proxies.noteRecorded('tagged', 'c1', 'lol -b', 0);
  proxies.noteRecorded('other', 'c1', 'lol, what a day', 300);
  assert.equal(proxies.noteWebhookPost('c1', 'lol', 400), true);
  assert.equal(proxies.wasProxied('tagged'), true);
  assert.equal(proxies.wasProxied('other'), false);
  assert.equal(proxies.noteWebhookPost('c1', 'lol', 500), false, 'a second post has no original left');
});

test('only the same channel counts, and a mark lasts only while its delete can still come', () => {
  const proxies = new ProxyReposts(GRACE);
  proxies.noteRecorded('m1', 'c1', 'hi', 0);
  assert.equal(proxies.noteWebhookPost('c2', 'hi', 100), false);
  assert.equal(proxies.noteWebhookPost('c1', 'hi', 200), true);
  proxies.noteRecorded('later', 'c1', 'something else', 200 + 2 * GRACE + 1);
  assert.equal(proxies.wasProxied('m1'), false, 'an old mark no longer shields a delete');
});
