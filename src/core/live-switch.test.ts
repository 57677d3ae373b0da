/**
 * @module A `memory-pool reembed` switch made while serve runs reaches every reader and writer at once:
 * stats, the viewer (timeline, a point read, a SillyTavern edit embedded with the collection's model),
 * Discord's `/memory stats`, `/retrieve` (same mode, same memories) and `/forget`; then `--rollback`,
 * the switch again, and `--drop-old`, each checked the same way.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { runImport } from '../cli/commands/import-command.js';
import { runReembed } from '../cli/commands/reembed-command.js';
import { captureOutput, writeDataToolConfig } from '../cli/commands/test-support/data-tool-fixture.js';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import {
  type DiscordHarness,
  SAM,
  startDiscordHarness,
} from '../interfaces/discord/test-support/discord-harness.js';
import { ask, command } from '../interfaces/discord/test-support/discord-interactions.js';
import { reembedTargetName } from '../maintenance/reembed-target.js';
import { storeClientOf } from '../service/test-support/start-service-on-test-store.js';

const NEW_DIMENSIONS = 32;
const ST_POINT = '5c56c793-69f3-4fbf-87e6-c4bf54c28c26';
const OLD = 'mem_mythos';

describe('a reembed switch made while serve runs is followed by every reader and writer at once', () => {
  let h: DiscordHarness;
  let client: QdrantClient;
  let config: string;
  let to: string;
  let target: string;
  let clock = Date.UTC(2026, 10, 1);
  /** What each step expects: the hit texts and modes recalled before the first switch. */
  let baseline: { texts: Set<string>; modes: Set<string> };
  /** The recall modes each step answered in (checked last: see the final test). */
  const modes = new Map<string, string[]>();

  const get = async (path: string) => {
    const response = await fetch(`${h.service.url}${path}`);
    // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
    return { status: response.status, json: (await response.json()) as any };
  };
  const save = async (id: string, text: string) => {
    clock += 60_000;
    const message = { speaker_kind: 'user', speaker_name: 'Helen', text, message_id: id, ts: clock };
    assert.equal(
      (await h.service.post('/save', { bot: 'mythos', source: 'api', messages: [message] })).status,
      200,
    );
    await h.flush();
  };
  const reembed = async (extra: { to?: string; rollback?: boolean; dropOld?: boolean }) => {
    const io = captureOutput();
    const code = await runReembed({ bot: 'mythos', config, json: true, ...extra }, io);
    assert.equal(code, 0, io.text().err);
  };
  const recall = async () => {
    const answer = await h.service.post('/retrieve', { bot: 'mythos', query_text: 'garden', explain: true });
    assert.equal(answer.status, 200);
    // SillyTavern's point is edited at each step: the memories compared are memory-pool's own.
    const hits = (answer.json.hits as { text: string; explain: { mode: string } }[]).filter(
      (hit) => !hit.text.includes('it was calm'),
    );
    return {
      texts: new Set(hits.map((hit) => hit.text)),
      modes: new Set(hits.map((hit) => hit.explain.mode)),
    };
  };

  /** Every face acts on `collection` (embedded with `dimensions`), and not on `other`. */
  const checkAllOn = async (step: string, collection: string, dimensions: number, other?: string) => {
    // A save after the switch is in `collection` only: the counts below tell the two apart.
    await save(`${step}-save`, `In the ${step} step we planted ${step} beans in the garden`);
    const { count } = await client.count(collection, { exact: true });
    const stats = await get('/bots/mythos/stats');
    assert.equal(stats.json.collection, collection, `${step}: stats name the live collection`);
    assert.equal(stats.json.points.total, count, `${step}: stats count the live collection`);
    const timeline = await get('/bots/mythos/points?limit=50');
    assert.equal(timeline.json.total, count, `${step}: the timeline reads the live collection`);
    const edited = `Helen: the ${step} edit of the sea\nMythos: it was calm`;
    const put = await fetch(`${h.service.url}/bots/mythos/points/${ST_POINT}/text`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: edited }),
    });
    assert.equal(put.status, 200, `${step}: ${await put.clone().text()}`);
    const [point] = await client.retrieve(collection, {
      ids: [ST_POINT],
      with_vector: true,
      with_payload: true,
    });
    assert.equal(point?.payload?.text, edited, `${step}: the edit is in the live collection`);
    assert.equal(
      (point?.vector as number[] | undefined)?.length,
      dimensions,
      `${step}: embedded with its model`,
    );
    const detail = await get(`/bots/mythos/points/${ST_POINT}`);
    assert.equal(detail.json.point.text, edited, `${step}: a point read reads the live collection`);
    if (other !== undefined && (await client.collectionExists(other)).exists) {
      const [stale] = await client.retrieve(other, { ids: [ST_POINT], with_payload: true });
      assert.notEqual(stale?.payload?.text, edited, `${step}: the other collection is untouched`);
    }
    const { callback } = await ask(h, command({ user: SAM }, 'stats'));
    assert.match(
      callback?.data?.content ?? '',
      new RegExp(`\\(${count} memories in all`),
      `${step}: Discord stats`,
    );
    const recalled = await recall();
    for (const text of baseline.texts) assert.ok(recalled.texts.has(text), `${step}: still recalls ${text}`);
    assert.ok(
      [...recalled.texts].some((text) => text.includes(`${step} beans`)),
      `${step}: recalls the new save`,
    );
    modes.set(step, [...recalled.modes].sort());
    const forgot = await h.service.post('/forget', { bot: 'mythos', message_ids: [`${step}-save`] });
    assert.equal(forgot.status, 200);
    await h.flush();
    assert.equal(
      (await client.count(collection, { exact: true })).count,
      count - 1,
      `${step}: forget reaches it`,
    );
  };

  before(async () => {
    h = await startDiscordHarness();
    client = storeClientOf(h.service);
    await save('g1', 'We planted tomatoes in the garden behind the house');
    await save('g2', 'The garden gate squeaks whenever the wind blows from the sea');
    await client.upsert(OLD, {
      wait: true,
      points: [
        {
          id: ST_POINT,
          vector: Array.from({ length: TEST_DIMENSIONS }, (_, i) => (i % 7) / 7 - 0.4),
          payload: { text: 'Helen: we talked about the sea\nMythos: it was calm', messageIds: 'st_1,st_2' },
        },
      ],
    });
    baseline = await recall();
    config = await writeDataToolConfig(h.service.dir, 'running', { service: h.service });
    to = join(h.service.dir, 'new-model.yaml');
    writeFileSync(to, `embedding: { provider: hashing, dimensions: ${NEW_DIMENSIONS} }\n`);
    target = reembedTargetName(
      OLD,
      new HashingEmbedder({ dimensions: NEW_DIMENSIONS }).model,
      NEW_DIMENSIONS,
    );
  });
  after(() => h.close());

  test('before any switch, every face acts on the configured collection', async () => {
    await checkAllOn('start', OLD, TEST_DIMENSIONS, target);
  });

  test('after the switch, on the new collection with the new model', async () => {
    await reembed({ to });
    await checkAllOn('switch', target, NEW_DIMENSIONS, OLD);
  });

  test('memory-pool import after the switch writes to the new collection with the new model', async () => {
    const file = join(h.service.dir, 'history.jsonl');
    const line = (id: string, text: string, minutes: number) =>
      JSON.stringify({
        speaker_kind: 'user',
        speaker_name: 'Helen',
        text,
        message_id: id,
        ts: clock + minutes * 60_000,
      });
    writeFileSync(
      file,
      `${[
        line(
          'imp1',
          'Imported: the lighthouse keeper painted the stairs bright yellow every single spring',
          1,
        ),
        line('imp2', 'Imported: his daughter counted all two hundred and twelve steps on the way up', 2),
      ].join('\n')}\n`,
    );
    const io = captureOutput();
    const code = await runImport('jsonl', [file], { bot: 'mythos', config, json: true }, io);
    const { out, err } = io.text();
    assert.equal(code, 0, err);
    const summary = JSON.parse(out) as { collection: string; chunksWritten: number; pendingMessages: number };
    assert.equal(summary.collection, target);
    assert.equal(summary.pendingMessages, 0, 'every imported message is stored');
    const page = await client.scroll(target, { limit: 1000, with_payload: true, with_vector: true });
    const imported = page.points.filter((p) => String(p.payload?.text).includes('lighthouse'));
    assert.equal(imported.length, 1);
    assert.equal((imported[0]?.vector as number[] | undefined)?.length, NEW_DIMENSIONS);
  });

  test('after --rollback, on the old collection with the old model', async () => {
    await reembed({ rollback: true });
    await checkAllOn('rollback', OLD, TEST_DIMENSIONS, target);
  });

  test('switched again, on the new collection', async () => {
    await reembed({ to });
    await checkAllOn('again', target, NEW_DIMENSIONS, OLD);
  });

  test('after --drop-old (serve stopped, as it requires) and a restart, still on the new collection', async () => {
    const { dir } = h.service;
    await h.service.stop();
    await h.fake.close();
    await reembed({ dropOld: true });
    h = await startDiscordHarness({}, { dir });
    client = storeClientOf(h.service);
    // The old name is now an alias of the new collection: there is no other collection left to compare.
    await checkAllOn('dropped', target, NEW_DIMENSIONS);
  });

  // The reembed builds the new collection's parts index before it switches (issue 23, defect 1).
  test('recall answered in the same mode (hybrid) after every switch', () => {
    const expected = [...baseline.modes].sort();
    assert.deepEqual(expected, ['hybrid']);
    for (const [step, seen] of modes)
      assert.deepEqual(seen, expected, `${step}: recall answers in the same mode`);
  });
});
