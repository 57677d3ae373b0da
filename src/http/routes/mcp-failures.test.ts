/**
 * @module `/mcp` failures answer as the HTTP routes do: an unexpected error is logged and answered as
 * `internal` without its message, never copied to the MCP caller.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createLogger } from '../../logging/logger.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';

/** One stateless JSON-RPC call to `/mcp`, answered as JSON. */
async function callMcp(fake: FakeServiceDeps, method: string, params: object): Promise<string> {
  const response = await fake.app.request('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  assert.equal(response.status, 200);
  return response.text();
}

describe('/mcp failures', () => {
  let fake: FakeServiceDeps;
  let logged: string[];
  beforeEach(async () => {
    logged = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => logged.push(chunk.toString('utf8')));
    fake = await createFakeServiceDeps({
      logger: createLogger({ level: 'info', format: 'json', destination: stream }),
    });
    // A stored memory, so that recall reaches the store's search.
    const text = 'Ben is allergic to peanuts and asks restaurants about their sauces first.';
    await callMcp(fake, 'tools/call', { name: 'remember', arguments: { speaker: 'Ben', text } });
    await fake.writer.runOnce({ flush: true });
    const fail = async (): Promise<never> => {
      throw new Error('SECRET /data/journal.sqlite');
    };
    // Every read recall may make first: the parts' searches too (and the count of chunks without parts).
    fake.store.searchPoints = fail;
    fake.store.queryPoints = fail;
    fake.store.countPoints = fail;
  });
  afterEach(() => fake.close());

  test('a tool call that fails unexpectedly answers internal, and the service logs the error', async () => {
    const text = await callMcp(fake, 'tools/call', { name: 'recall', arguments: { query: 'peanuts' } });
    assert.doesNotMatch(text, /SECRET/);
    assert.match(text, /memory-pool refused \(internal\): internal error; see the service log/);
    const line = logged.find((entry) => entry.includes('unexpected error'));
    assert.ok(line, `no error logged: ${logged.join('')}`);
    assert.match(line, /SECRET/);
  });

  test("the bot resource's error says internal, not the raw message", async () => {
    const text = await callMcp(fake, 'resources/read', { uri: 'memory-pool://bots/mythos' });
    assert.doesNotMatch(text, /SECRET/);
    assert.match(text, /internal error; see the service log/);
    assert.ok(logged.some((entry) => entry.includes('unexpected error')));
  });
});
