import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { runReembed } from '../cli/commands/reembed-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openMessageJournal } from '../journal/message-journal.js';
import { startTestService, type TestService, testBot } from '../service/test-support/start-test-service.js';
import { reembedTargetName } from './reembed-target.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from './test-support/data-tool-fixture.js';

const NEW_DIMENSIONS = 32;

async function reembed(
  config: string,
  extra: { to?: string; rollback?: boolean; dropOld?: boolean; dryRun?: boolean },
) {
  const io = captureOutput();
  const code = await runReembed({ bot: 'mythos', config, json: true, ...extra }, io);
  const { out, err } = io.text();
  return { code, err, summary: out ? JSON.parse(out) : undefined };
}

async function allPoints(client: QdrantClient, collection: string) {
  const page = await client.scroll(collection, { limit: 1000, with_payload: true, with_vector: true });
  return page.points;
}

describe('memory-pool reembed moves a bot to another model without losing anything', () => {
  let service: TestService;
  let client: QdrantClient;
  let config: string;
  let to: string;
  let target: string;
  const dir = () => service.dir;
  before(async () => {
    ({ service, client } = await startServiceWithMemories());
    config = await writeDataToolConfig(service.dir, 'running', { service });
    to = join(service.dir, 'new-model.yaml');
    writeFileSync(to, `embedding: { provider: hashing, dimensions: ${NEW_DIMENSIONS} }\n`);
    const model = new HashingEmbedder({ dimensions: NEW_DIMENSIONS }).model;
    target = reembedTargetName('mem_mythos', model, NEW_DIMENSIONS);
  });
  after(() => service.close());

  test('beside a running serve it builds the new collection from the chunk texts, and waits to switch', async () => {
    const dry = await reembed(config, { to, dryRun: true });
    assert.equal(dry.code, 0, dry.err);
    assert.equal((await client.collectionExists(target)).exists, false);
    const built = await reembed(config, { to });
    assert.equal(built.code, 1, 'not switched while serve runs');
    assert.match(built.summary.pending, /stop `memory-pool serve`/);
    const old = await allPoints(client, 'mem_mythos');
    const fresh = await allPoints(client, target);
    assert.equal(fresh.length, old.length);
    assert.equal(built.summary.sync.embedded, old.length);
    assert.ok(fresh.every((p) => (p.vector as number[]).length === NEW_DIMENSIONS));
    const byId = new Map(old.map((p) => [p.id, p.payload]));
    for (const p of fresh) assert.deepEqual(p.payload, byId.get(p.id));
    assert.ok(
      fresh.some((p) => p.payload?.messageIds === 'st_1,st_2'),
      'SillyTavern point moved too',
    );
  });

  test('a rerun embeds only what arrived meanwhile, and one more embeds nothing', async () => {
    await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        {
          speaker_kind: 'user',
          text: 'We planted tomatoes in the garden behind the house today',
          message_id: 'd9',
          ts: Date.UTC(2026, 10, 5),
        },
      ],
    });
    await service.writer.runOnce({ flush: true });
    const caught = await reembed(config, { to });
    assert.equal(caught.summary.sync.embedded, 1);
    const again = await reembed(config, { to });
    assert.equal(again.summary.sync.embedded, 0);
  });

  test('with serve stopped it switches; serve then uses the new collection, and refuses the old model', async () => {
    await service.stop();
    const switched = await reembed(config, { to });
    assert.equal(switched.code, 0, switched.err);
    assert.equal(switched.summary.switched, true);
    const oldModel = await startTestService({ dir: dir(), bots: [testBot('mythos')] }).then(
      async (started) => {
        await started.stop(); // must not start: closed so the store's folder is free again
        return undefined;
      },
      (error: Error) => error,
    );
    assert.match(String(oldModel?.message), /switched by `memory-pool reembed` to mem_mythos__m.*--rollback/);
    const restarted = await startTestService({
      dir: dir(),
      bots: [testBot('mythos')],
      embedder: new HashingEmbedder({ dimensions: NEW_DIMENSIONS }),
    });
    try {
      const recalled = await restarted.post('/retrieve', {
        bot: 'mythos',
        query_text: 'tomatoes in the garden',
      });
      assert.equal(recalled.status, 200);
      assert.ok(recalled.json.hits.some((hit: { text: string }) => hit.text.includes('tomatoes')));
      await restarted.post('/save', {
        bot: 'mythos',
        source: 'discord',
        messages: [
          {
            speaker_kind: 'user',
            text: 'The tomatoes turned red after two sunny weeks',
            message_id: 'd10',
            ts: Date.UTC(2026, 10, 20),
          },
        ],
      });
      await restarted.writer.runOnce({ flush: true });
      const store = new QdrantClient({ url: restarted.storeUrl!, checkCompatibility: false });
      const holds = async (collection: string) =>
        (await allPoints(store, collection)).some((p) => String(p.payload?.text).includes('turned red'));
      assert.equal(await holds(target), true, 'a save after the switch is written to the new collection');
      assert.equal(await holds('mem_mythos'), false);
    } finally {
      await restarted.stop();
    }
  });

  test('--rollback brings what was written since back to the old collection; --drop-old leaves an alias', async () => {
    const rolled = await reembed(config, { rollback: true });
    assert.equal(rolled.code, 0, rolled.err);
    assert.equal(
      rolled.summary.sync.embedded,
      1,
      'the message saved after the switch reaches the old collection',
    );
    const journal = openMessageJournal(join(dir(), 'service'));
    assert.equal(journal.routes.activeCollection('mem_mythos'), 'mem_mythos');
    journal.close();
    const forward = await reembed(config, { to });
    assert.equal(forward.summary.switched, true);
    const dropped = await reembed(config, { dropOld: true });
    assert.equal(dropped.code, 0, dropped.err);
    assert.equal(dropped.summary.dropped, 'mem_mythos');
    const noRollback = await reembed(config, { rollback: true });
    assert.equal(noRollback.code, 1);
    assert.match(noRollback.err, /no previous collection/);
  });
});
