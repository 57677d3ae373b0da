/**
 * @module The float index on the parts' `timestamp` (service-indexes.ts) in the embedded store, through the service
 * as it runs: a parts collection gets it when created, and one that lacks it (a folder from before) at the next start.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { QdrantClient } from '@qdrant/js-client-rest';
import { testBot } from '../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

/** The type of `collection`'s index on `timestamp`, once it shows (it is asked for without waiting). */
async function timestampIndexOf(client: QdrantClient, collection: string): Promise<string | undefined> {
  for (let tries = 0; tries < 50; tries++) {
    const schema = ((await client.getCollection(collection)).payload_schema ?? {}) as Record<
      string,
      { data_type?: string }
    >;
    if (schema.timestamp !== undefined) return schema.timestamp.data_type;
    await sleep(20);
  }
  return undefined;
}

test('the parts are indexed by timestamp when created, and at the next start when they lack it', {
  timeout: 60_000,
}, async () => {
  let service: TestService | undefined = await startTestService({ bots: [testBot('mythos')] });
  const dir = service.dir;
  try {
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        { message_id: 'm1', speaker_kind: 'user', user_id: 'u1', channel_id: 'c1', text: 'hello there' },
      ],
    });
    assert.equal(saved.status, 200);
    await service.writer.runOnce({ flush: true });
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    assert.equal(await timestampIndexOf(client, 'mem_mythos__parts'), 'float');
    await client.deletePayloadIndex('mem_mythos__parts', 'timestamp', { wait: true });
    await service.stop();

    service = await startTestService({ dir, bots: [testBot('mythos')] });
    const again = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    assert.equal(await timestampIndexOf(again, 'mem_mythos__parts'), 'float');
  } finally {
    await service?.close();
  }
});
