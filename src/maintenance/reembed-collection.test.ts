import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { runReembed } from '../cli/commands/reembed-command.js';
import { runReindex } from '../cli/commands/reindex-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { restartTestService, storeClientOf } from '../service/test-support/start-service-on-test-store.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import { reembedTargetName } from './reembed-target.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from '../cli/commands/test-support/data-tool-fixture.js';

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
  /** The bot's collection, named for this run. */
  let collection: string;
  const dir = () => service.dir;
  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    config = await writeDataToolConfig(service.dir, 'running', { service });
    to = join(service.dir, 'new-model.yaml');
    writeFileSync(to, `embedding: { provider: hashing, dimensions: ${NEW_DIMENSIONS} }\n`);
    const model = new HashingEmbedder({ dimensions: NEW_DIMENSIONS }).model;
    target = reembedTargetName(collection, model, NEW_DIMENSIONS);
  });
  after(() => service.close());

  test('--dry-run reports what it would embed and writes nothing', async () => {
    const dry = await reembed(config, { to, dryRun: true });
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.summary.sync.embedded, (await allPoints(client, collection)).length);
    assert.equal((await client.collectionExists(target)).exists, false);
    const journal = openSqliteJournal(join(dir(), 'service'));
    assert.equal(await journal.routes.reembedOf(collection), undefined, 'a dry run records no reembed');
    await journal.close();
  });

  test('beside a running serve it builds and switches; saves made meanwhile are each in the new collection once', async () => {
    const before = new Map((await allPoints(client, collection)).map((p) => [p.id, p.payload]));
    const saved: string[] = [];
    let building = true;
    let savedDuringBuild = 0;
    // Ids serve stored while the bot still used the old collection (seen in the journal after each write):
    // serve answers from the old collection until the switch, so each must be there.
    const storedBeforeSwitch: string[] = [];
    const routes = openSqliteJournal(join(dir(), 'service'));
    const saves = (async () => {
      for (let round = 0; building || round < 3; round += 1) {
        const ids = [0, 1, 2, 3].map((i) => `live-${round}-${i}`);
        const response = await service.post('/save', {
          bot: 'mythos',
          source: 'discord',
          messages: ids.map((id, i) => ({
            speaker_kind: i % 2 === 0 ? 'user' : 'self',
            text: `Round ${round} message ${i}: the lighthouse keeper rowed to the harbour at dawn`,
            message_id: id,
            ts: Date.UTC(2026, 10, 10) + round * 300_000 + i * 1_000,
          })),
        });
        assert.equal(response.status, 200);
        saved.push(...ids);
        if (building) {
          savedDuringBuild += 1;
          await service.writer.runOnce({ flush: true });
          if ((await routes.routes.activeCollection(collection)) === collection)
            storedBeforeSwitch.push(...ids);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const built = await reembed(config, { to });
    building = false;
    await saves;
    await routes.close();
    assert.equal(built.code, 0, built.err);
    assert.equal(built.summary.switched, true, 'switched without stopping serve');
    assert.ok(savedDuringBuild > 0, 'saves were acknowledged while the reembed ran');
    await service.writer.runOnce({ flush: true });
    const fresh = await allPoints(client, target);
    assert.ok(fresh.every((p) => (p.vector as number[]).length === NEW_DIMENSIONS));
    for (const [id, payload] of before) {
      assert.deepEqual(
        fresh.find((p) => p.id === id)?.payload,
        payload,
        `point ${String(id)} moved as it was`,
      );
    }
    assert.ok(
      fresh.some((p) => p.payload?.messageIds === 'st_1,st_2'),
      'SillyTavern point moved too',
    );
    const holding = (points: typeof fresh, id: string) =>
      points.filter((p) => String(p.payload?.messageIds).split(',').includes(id)).length;
    for (const id of saved)
      assert.equal(holding(fresh, id), 1, `message ${id} is in the new collection exactly once`);
    assert.ok(storedBeforeSwitch.length > 0, 'serve stored saves while the reembed built');
    const old = await allPoints(client, collection);
    for (const id of storedBeforeSwitch) {
      assert.equal(
        holding(old, id),
        1,
        `message ${id}, stored during the build, reached the old collection too`,
      );
    }
  });

  test('the running serve answers from the new collection with the new model and writes new saves there', async () => {
    await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        {
          speaker_kind: 'user',
          text: 'We planted tomatoes in the garden behind the house today',
          message_id: 'd9',
          ts: Date.UTC(2026, 10, 15),
        },
      ],
    });
    await service.writer.runOnce({ flush: true });
    const holds = async (collection: string, text: string) =>
      (await allPoints(client, collection)).some((p) => String(p.payload?.text).includes(text));
    assert.equal(
      await holds(target, 'tomatoes'),
      true,
      'a save after the switch is written to the new collection',
    );
    assert.equal(await holds(collection, 'tomatoes'), false);
    // Queried with the old 16-d model, the 32-d collection would refuse the search.
    const recalled = await service.post('/retrieve', { bot: 'mythos', query_text: 'tomatoes in the garden' });
    assert.equal(recalled.status, 200);
    assert.ok(recalled.json.hits.some((hit: { text: string }) => hit.text.includes('tomatoes')));
    const explained = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'tomatoes in the garden',
      explain: true,
    });
    assert.deepEqual(
      [...new Set(explained.json.hits.map((hit: { explain: { mode: string } }) => hit.explain.mode))],
      ['hybrid'],
      'the reembed built the parts index with the new model: recall stays hybrid, no reindex needed',
    );
    const again = await reembed(config, { to });
    assert.equal(again.code, 0, again.err);
    assert.equal(again.summary.from, target, 'a rerun finds the switch done');
    // The config still names the old model: reindex checks the new collection's parts with the recorded one.
    const io = captureOutput();
    assert.equal(await runReindex({ bot: 'mythos', config, json: true }, io), 0, io.text().err);
    assert.equal(JSON.parse(io.text().out).reindexed, 0, 'the reembed left reindex nothing to do');
    const parts = await allPoints(client, `${target}__parts`);
    assert.ok(parts.length > 0);
    assert.ok(
      parts.every((p) =>
        Object.values(p.vector as Record<string, unknown>).some(
          (v) => Array.isArray(v) && v.length === NEW_DIMENSIONS,
        ),
      ),
      'parts embedded with the new model',
    );
  });

  test('serve started again with the old model in its config follows the journal (the recorded model)', async () => {
    await service.stop();
    const restarted = await restartTestService(service);
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
      const store = storeClientOf(restarted);
      const point = (await allPoints(store, target)).find((p) =>
        String(p.payload?.text).includes('turned red'),
      );
      assert.equal((point?.vector as number[] | undefined)?.length, NEW_DIMENSIONS);
    } finally {
      await restarted.stop();
    }
  });

  test('--rollback brings what was written since back to the old collection; --drop-old leaves an alias', async () => {
    const stopped = await restartTestService(service);
    const store = storeClientOf(stopped);
    const oldIds = new Set((await allPoints(store, collection)).map((p) => p.id));
    const sinceSwitch = (await allPoints(store, target)).filter((p) => !oldIds.has(p.id));
    await stopped.stop();
    const rolled = await reembed(config, { rollback: true });
    assert.equal(rolled.code, 0, rolled.err);
    assert.ok(sinceSwitch.length >= 2);
    assert.equal(
      rolled.summary.sync.embedded,
      sinceSwitch.length,
      'what was saved after the switch reaches the old collection, and nothing else is embedded again',
    );
    const journal = openSqliteJournal(join(dir(), 'service'));
    assert.equal(await journal.routes.activeCollection(collection), collection);
    await journal.close();
    const forward = await reembed(config, { to });
    assert.equal(forward.summary.switched, true);
    const dropped = await reembed(config, { dropOld: true });
    assert.equal(dropped.code, 0, dropped.err);
    assert.equal(dropped.summary.dropped, collection);
    const noRollback = await reembed(config, { rollback: true });
    assert.equal(noRollback.code, 1);
    assert.match(noRollback.err, /no previous collection/);
  });
});
