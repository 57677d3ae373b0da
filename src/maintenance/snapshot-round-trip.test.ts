import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { runExport } from '../cli/commands/export-command.js';
import { runRestore } from '../cli/commands/restore-command.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from '../cli/commands/test-support/data-tool-fixture.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import type { TestService } from '../service/test-support/start-test-service.js';

const NOW = () => Date.UTC(2026, 11, 3, 12);

async function exportTo(config: string, out: string) {
  const io = captureOutput();
  const code = await runExport({ bot: 'mythos', config, out, json: true }, io, undefined, NOW);
  assert.equal(code, 0, io.text().err);
  return JSON.parse(io.text().out);
}

async function restore(
  file: string,
  config: string,
  extra: { intoCollection?: string; dryRun?: boolean } = {},
) {
  const io = captureOutput();
  const code = await runRestore(file, { bot: 'mythos', config, json: true, ...extra }, io);
  return { code, ...io.text(), summary: code === 0 ? JSON.parse(io.text().out) : undefined };
}

describe('export and restore', () => {
  let service: TestService;
  let client: QdrantClient;
  let source: string;
  let first: string;
  /** The bot's collection, named for this run; the others here are named after it (so they are cleaned up). */
  let collection: string;
  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    source = await writeDataToolConfig(service.dir, 'source', { service });
    first = join(service.dir, 'first.jsonl.gz');
    await exportTo(source, first);
  });
  after(() => service.close());

  test('the snapshot holds a header, every point with its vector (SillyTavern too) and the journal rows', () => {
    const lines = gunzipSync(readFileSync(first))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const header = lines[0];
    assert.equal(header.format, 'memory-pool-snapshot');
    assert.equal(header.collection, collection);
    assert.equal(header.vectorSize, 64);
    assert.equal(header.distance, 'Cosine');
    assert.equal(header.model.model, 'hashing:words-trigrams-v1');
    assert.equal(header.createdAt, '2026-12-03T12:00:00.000Z');
    const points = lines.filter((l) => l.type === 'point');
    assert.ok(points.some((p) => p.payload.messageIds === 'st_1,st_2' && p.payload.source === undefined));
    assert.ok(points.every((p) => Array.isArray(p.vector) && p.vector.length === 64));
    const rows = lines.filter((l) => l.type === 'row');
    assert.deepEqual(
      rows.filter((r) => r.table === 'forgotten_messages').map((r) => r.row.message_id),
      ['d2'],
    );
    assert.equal(rows.filter((r) => r.table === 'messages').length, 4); // the forgotten d2 is gone, its tombstone stays
    assert.deepEqual(lines.at(-1), {
      type: 'end',
      points: points.length,
      rows: {
        chunks: rows.filter((r) => r.table === 'chunks').length,
        collection_models: 1,
        forget_audit: 1,
        forgotten_messages: 1,
        messages: 4,
        people: 1,
        person_accounts: 1,
        rename_chunks: 0,
        rename_requests: 0,
      },
    });
  });

  test('export --dry-run counts and writes nothing; without --out the snapshot goes to stdout, the summary to stderr', async () => {
    const planned = join(service.dir, 'planned.jsonl');
    const dry = captureOutput();
    assert.equal(
      await runExport(
        { bot: 'mythos', config: source, out: planned, dryRun: true, json: true },
        dry,
        undefined,
        NOW,
      ),
      0,
      dry.text().err,
    );
    const report = JSON.parse(dry.text().out);
    assert.equal(report.dryRun, true);
    assert.equal(report.points, (await client.count(collection)).count);
    assert.equal(existsSync(planned) || existsSync(`${planned}.partial`), false, 'a dry run writes no file');

    const chunks: Buffer[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const piped = captureOutput();
    assert.equal(await runExport({ bot: 'mythos', config: source }, piped, stdout, NOW), 0, piped.text().err);
    assert.equal(
      Buffer.concat(chunks).toString('utf8'),
      gunzipSync(readFileSync(first)).toString('utf8'),
      'stdout carries the same snapshot as --out, uncompressed',
    );
    assert.equal(piped.text().out, '', 'nothing but the snapshot on stdout');
    assert.match(
      piped.text().err,
      new RegExp(`${collection} \\(bot mythos, model hashing:\\S+\\): exported to stdout \\d+ points`),
    );
  });

  test('export → restore into the lost collection with a fresh journal → export gives the same bytes; a second restore changes nothing', async () => {
    // The store lost the collection and the machine its journal: the snapshot is all that is left.
    const target = await writeDataToolConfig(service.dir, 'target', { service, ownJournal: true });
    await client.deleteCollection(collection);
    const restored = await restore(first, target);
    assert.equal(restored.code, 0, restored.err);
    assert.equal(restored.summary.alreadyRestored, false);
    assert.ok(restored.summary.rowsInserted > 5);
    const collectionInfo = (await client.getCollection(collection)) as {
      payload_schema: Record<string, { data_type: string }>;
    };
    assert.equal(
      collectionInfo.payload_schema['timestamp']?.data_type,
      'float',
      'the restored collection has the timeline index, so the viewer lists it newest first',
    );
    const again = await restore(first, target);
    assert.equal(again.summary.alreadyRestored, true);
    const second = join(service.dir, 'second.jsonl.gz');
    await exportTo(target, second);
    assert.ok(readFileSync(first).equals(readFileSync(second)), 'the re-export differs from the export');
    // The journal keeps dedup and forgetting: the forgotten id is a tombstone, the others are known.
    const journal = openSqliteJournal(join(service.dir, 'target', 'service'));
    try {
      const result = await journal.recordMessages(
        ['d1', 'd2'].map((id) => ({
          bot: 'mythos',
          messageId: id,
          source: 'discord',
          speakerKind: 'user' as const,
          text: id === 'd1' ? 'My sister Anna lives in Lisbon and teaches piano to children' : 'x',
          ts: 1,
        })),
        Date.now(),
      );
      assert.deepEqual(result, { accepted: 0, duplicates: 1, edited: 0, forgotten: 1 });
    } finally {
      await journal.close();
    }
  });

  test('restore refuses a collection with another model’s vectors, and a non-empty one, naming the fix', async () => {
    await client.createCollection(`${collection}_small`, { vectors: { size: 32, distance: 'Cosine' } });
    const other = await restore(first, source, { intoCollection: `${collection}_small` });
    assert.equal(other.code, 1);
    assert.match(other.err, new RegExp(`${collection}_small has the vector layout .*--into-collection`));
    const busy = await restore(first, source);
    assert.equal(busy.code, 1);
    assert.match(busy.err, /already holds \d+ points.*--into-collection/);
    const parts = await restore(first, source, { intoCollection: `${collection}__parts` });
    assert.equal(parts.code, 1);
    assert.match(
      parts.err,
      /--into-collection \S+__parts: a name ending in `__parts` is where memory-pool keeps/,
    );
    assert.equal(
      (await client.collectionExists(`${collection}__parts`)).exists,
      true,
      'the parts are untouched',
    );
  });

  test('a dry run writes nothing; a cut-short or bad file is refused with its line and the fix', async () => {
    const dry = await restore(first, source, { intoCollection: `${collection}_copy`, dryRun: true });
    assert.equal(dry.code, 0, dry.err);
    assert.equal((await client.collectionExists(`${collection}_copy`)).exists, false);
    const text = gunzipSync(readFileSync(first)).toString('utf8').split('\n');
    const cut = join(service.dir, 'cut.jsonl');
    writeFileSync(cut, `${text.slice(0, 3).join('\n')}\n`);
    const cutShort = await restore(cut, source, { intoCollection: `${collection}_copy` });
    assert.match(cutShort.err, /cut\.jsonl ends at line 3 without its end line/);
    const bad = join(service.dir, 'bad.jsonl');
    writeFileSync(bad, `${text[0]}\n{"type":"point","id":7}\n`);
    const badLine = await restore(bad, source, { intoCollection: `${collection}_copy` });
    assert.match(badLine.err, /bad\.jsonl line 2: is point 7 without a vector/);
    assert.equal((await client.collectionExists(`${collection}_copy`)).exists, false);
  });

  test('a journal row this journal would refuse refuses the whole restore before any point is written', async () => {
    const lines = gunzipSync(readFileSync(first)).toString('utf8').split('\n');
    const at = lines.findIndex((line) => line.includes('"table":"messages"'));
    const edited = (change: (row: Record<string, unknown>) => void) => {
      const line = JSON.parse(lines[at] as string);
      change(line.row);
      return lines.map((text, index) => (index === at ? JSON.stringify(line) : text)).join('\n');
    };
    const nested = join(service.dir, 'nested-value.jsonl');
    writeFileSync(
      nested,
      edited((row) => {
        row.text = { x: 1 };
      }),
    );
    const nestedValue = await restore(nested, source, { intoCollection: `${collection}_half` });
    assert.equal(nestedValue.code, 1);
    assert.match(
      nestedValue.err,
      new RegExp(
        `nested-value\\.jsonl line ${at + 1}: is a messages row whose column "text" is not a string, number or null`,
      ),
    );
    const extra = join(service.dir, 'extra-column.jsonl');
    writeFileSync(
      extra,
      edited((row) => {
        row.evil = 1;
      }),
    );
    const extraColumn = await restore(extra, source, { intoCollection: `${collection}_half` });
    assert.equal(extraColumn.code, 1);
    assert.match(
      extraColumn.err,
      new RegExp(
        `extra-column\\.jsonl line ${at + 1}: a messages row has the column "evil", which the journal does not have; nothing was written`,
      ),
    );
    assert.equal((await client.collectionExists(`${collection}_half`)).exists, false);
  });
});
