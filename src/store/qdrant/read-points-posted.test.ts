/** @module A point read posted to the embedded store that never answers fails as a REST read would: on time. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { StoreError } from '../../errors/memory-pool-error.js';
import { createQdrantPointStore } from './qdrant-point-store.js';

type Posted = NonNullable<Parameters<typeof createQdrantPointStore>[0]['posted']>;

// A store that takes every request and never answers: the REST read's timeout.
let silent: Server;
let url: string;
before(async () => {
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
after(() => {
  silent.closeAllConnections();
  silent.close();
});

/** What a search made through the store ends with: its error's code and whether a retry can help. */
async function failSearch(posted: Posted | undefined): Promise<[string, boolean]> {
  const store = createQdrantPointStore({ url, timeoutMs: 50, ...(posted === undefined ? {} : { posted }) });
  try {
    await store.searchPoints('parts', { vector: [1, 0, 0, 0], limit: 3 });
  } catch (error) {
    assert.ok(error instanceof StoreError, String(error));
    return [error.code, error.retryable];
  }
  assert.fail('a read nobody answered succeeded');
}

test('a posted read the store thread never answers gives up after the timeout, as the REST read does', {
  timeout: 10_000,
}, async () => {
  const stuck = { read: () => new Promise<never>(() => {}) } as unknown as Posted;
  const rest = await failSearch(undefined);
  assert.deepEqual(rest, ['store_unavailable', true]);
  assert.deepEqual(await failSearch(stuck), rest);
});
