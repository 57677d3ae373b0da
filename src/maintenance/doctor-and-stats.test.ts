import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { runDoctor } from '../cli/commands/doctor-command.js';
import { runStats } from '../cli/commands/stats-command.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import { UNSOURCED } from '../cli/commands/format-stats.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from '../cli/commands/test-support/data-tool-fixture.js';

async function doctor(config: string, json = true) {
  const io = captureOutput();
  const code = await runDoctor({ config, json }, io);
  return { code, ...io.text() };
}

describe('memory-pool stats and doctor', () => {
  let service: TestService;
  let client: QdrantClient;
  let config: string;
  let collection: string;
  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    config = await writeDataToolConfig(service.dir, 'running', { service });
  });
  after(() => service.close());

  test('stats counts points by source (SillyTavern’s apart), messages, and the oldest and newest memory', async () => {
    const io = captureOutput();
    assert.equal(await runStats({ config, json: true }, io), 0, io.text().err);
    const [stats] = JSON.parse(io.text().out).bots;
    assert.equal(stats.collection, collection);
    assert.equal(stats.pointsBySource[UNSOURCED], 1);
    assert.ok(stats.pointsBySource.discord >= 1 && stats.pointsBySource.hermes >= 1);
    assert.equal(
      stats.points,
      Object.values(stats.pointsBySource).reduce((a: number, b) => a + (b as number), 0),
    );
    assert.deepEqual(stats.messagesBySource, { discord: 2, hermes: 2 });
    assert.equal(stats.forgotten, 1);
    assert.equal(stats.oldest, '2026-11-02T09:01:00.000Z');
    assert.equal(stats.newest, '2026-11-02T09:05:00.000Z');
    assert.equal(stats.pending, 0, 'every message is stored');
    const table = captureOutput();
    await runStats({ config }, table);
    assert.match(table.text().out, /^bot\s+collection\s+source\s+points\s+messages\n/);
    assert.match(
      table.text().out,
      new RegExp(`mythos\\s+${collection}\\s+\\(none: SillyTavern\\)\\s+1\\s+0`),
    );
  });

  test('stats counts a message saved but not yet stored as pending', async () => {
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'hermes',
      messages: [{ speaker_kind: 'user', text: 'Pixel learned to open the kitchen door', message_id: 'h3' }],
    });
    assert.equal(saved.status, 200);
    const io = captureOutput();
    assert.equal(await runStats({ config, json: true }, io), 0, io.text().err);
    const [waiting] = JSON.parse(io.text().out).bots;
    assert.equal(waiting.pending, 1);
    assert.equal(waiting.messagesBySource.hermes, 3);
    await service.writer.runOnce({ flush: true });
    const after = captureOutput();
    await runStats({ config, json: true }, after);
    assert.equal(JSON.parse(after.text().out).bots[0].pending, 0, 'stored once the writer ran');
  });

  test('doctor passes every check on a healthy setup and exits 0', async () => {
    const result = await doctor(config);
    const report = JSON.parse(result.out);
    assert.equal(result.code, 0, result.out);
    assert.equal(report.ok, true);
    const names = report.checks.map((c: { name: string }) => c.name);
    for (const name of [
      'config valid',
      'store reachable',
      'embedder answers',
      'journal writable',
      'pending backlog',
      'API keys',
    ]) {
      assert.ok(names.includes(name), `missing check ${name}`);
    }
    const text = await doctor(config, false);
    assert.match(text.out, /^pass {2}config valid/m);
    assert.match(text.out, /All \d+ checks pass\./);
  });

  test('doctor fails, with the fix, on another model’s collection, a text index on messageIds, a bad config', async () => {
    const small = await writeDataToolConfig(service.dir, 'small', { service, dimensions: 32 });
    const mismatch = await doctor(small, false);
    assert.equal(mismatch.code, 1);
    assert.match(
      mismatch.out,
      new RegExp(
        `FAIL {2}bot mythos: collection ${collection}: holds 64-dimensional vectors, the embedder makes 32\\n {6}fix: .*reembed`,
      ),
    );
    await client.createPayloadIndex(collection, {
      field_name: 'messageIds',
      field_schema: 'text',
      wait: true,
    });
    const indexed = await doctor(config, false);
    assert.equal(indexed.code, 1);
    assert.match(indexed.out, /FAIL {2}bot mythos: no full-text index on messageIds.*\n {6}fix: Delete it/);
    await client.deletePayloadIndex(collection, 'messageIds', { wait: true });
    const broken = join(service.dir, 'broken.yaml');
    writeFileSync(broken, 'listen: { port: not-a-port }\n');
    const bad = await doctor(broken, false);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /FAIL {2}config valid: [\s\S]*listen\.port: expected an integer/);
  });
});
