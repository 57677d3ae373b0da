import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../embedding/test-support/fake-openai-server.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { readEnv } from '../runtime/read-env.js';
import { findFreePort } from '../runtime/find-free-port.js';
import { type DoctorBench, startDoctorBench } from '../cli/commands/test-support/doctor-bench.js';

const MODEL = new HashingEmbedder({ dimensions: 64 }).model;
const NOW = Date.UTC(2026, 10, 2, 12);

/** The failure's lines: `FAIL  <name>: <detail>` (a config's problems run on below it), then the fix. */
function assertFails(result: { code: number; out: string }, name: string, detail: RegExp, fix: RegExp): void {
  assert.equal(result.code, 1, result.out);
  const lines = result.out.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`FAIL  ${name}: `));
  assert.ok(start >= 0, `no FAIL line for ${name} in:\n${result.out}`);
  const fixAt = lines.findIndex((l, i) => i > start && l.startsWith('      fix: '));
  assert.match(lines.slice(start, fixAt).join('\n'), detail);
  assert.match(lines[fixAt]!, new RegExp(`^ {6}fix: ${fix.source}`));
}

describe('memory-pool doctor: every failure is a FAIL line with its fix and exit code 1', () => {
  let bench: DoctorBench;
  let embeddings: FakeOpenAiServer;
  before(async () => {
    bench = await startDoctorBench();
    embeddings = await startFakeOpenAiServer({ dimensions: 64 });
  });
  after(async () => {
    await embeddings.close();
    await bench.close();
  });

  const createCollection = (name: string, distance: 'Cosine' | 'Dot' = 'Cosine') =>
    bench.client.createCollection(name, { vectors: { size: 64, distance } });

  test('a healthy setup passes every check and exits 0', async () => {
    const setup = bench.setup();
    await createCollection(setup.collection);
    await bench.withJournal(setup, (journal) =>
      journal.recordCollectionModel(setup.collection, MODEL, 64, NOW),
    );
    const result = await bench.doctor(setup.config, { now: () => NOW });
    assert.equal(result.code, 0, result.out);
    assert.doesNotMatch(result.out, /FAIL/);
    assert.match(
      result.out,
      /^pass {2}bot mythos: collection \S+: 0 points, one unnamed 64-d Cosine vector/m,
    );
    // Where its vectors live, with the PATCH that moves them (docs/growth.md "Vectors on disk").
    assert.match(
      result.out,
      /^pass {2}bot mythos: vectors of (\S+): the unnamed vector in RAM \(to switch: PATCH \/collections\/\1 with \{"vectors":\{"":\{"on_disk":true\}\}\}/m,
    );
    assert.match(result.out, /All 11 checks pass\.\n$/);
  });

  test('a collection whose vectors are on disk says so, with the PATCH back to RAM', async () => {
    const setup = bench.setup();
    await bench.client.createCollection(setup.collection, {
      vectors: { size: 64, distance: 'Cosine', on_disk: true },
    });
    const result = await bench.doctor(setup.config, { now: () => NOW });
    assert.match(
      result.out,
      /^pass {2}bot mythos: vectors of \S+: the unnamed vector on disk \(to switch: PATCH \S+ with \{"vectors":\{"":\{"on_disk":false\}\}\}/m,
    );
  });

  test('an unreachable store', {
    skip: readEnv(process.env, 'QDRANT_URL') !== undefined && 'QDRANT_URL sends every config to that Qdrant',
  }, async () => {
    const port = await findFreePort();
    const setup = bench.setup({ store: `store: { qdrant: { url: "http://127.0.0.1:${port}" } }` });
    assertFails(
      await bench.doctor(setup.config),
      'store reachable',
      new RegExp(`cannot reach Qdrant at http://127\\.0\\.0\\.1:${port}`),
      /Start the store, then run doctor again\./,
    );
  });

  test('a collection with another distance', async () => {
    const setup = bench.setup();
    await createCollection(setup.collection, 'Dot');
    assertFails(
      await bench.doctor(setup.config),
      `bot mythos: collection ${setup.collection}`,
      /uses Dot distance, not Cosine$/,
      /Point bots\.mythos\.collection at a new collection: memory-pool creates it with Cosine on first save\./,
    );
  });

  test('a collection written by another model of the same size', async () => {
    const setup = bench.setup();
    await createCollection(setup.collection);
    await bench.withJournal(setup, (journal) =>
      journal.recordCollectionModel(setup.collection, 'openai-compatible:nomic-embed-text', 64, NOW),
    );
    assertFails(
      await bench.doctor(setup.config),
      `bot mythos: collection ${setup.collection}`,
      new RegExp(`was written with openai-compatible:nomic-embed-text, the config embeds with ${MODEL}$`),
      /Configure the model that made the collection again, or move it .*`memory-pool reembed --bot mythos --to <file>`/,
    );
  });

  test('an embedder that answers with another dimension than configured', async () => {
    const setup = bench.setup({
      embedding: `embedding: { provider: openai-compatible, baseUrl: "${embeddings.baseUrl}", model: fake-embedding-model, dimensions: 64, maxRetries: 0 }`,
    });
    embeddings.failNext({ kind: 'wrong-dimensions', dimensions: 32 });
    assertFails(
      await bench.doctor(setup.config),
      'embedder answers',
      /returned 32-d vectors but embedding\.dimensions is 64/,
      /Set embedding\.dimensions to what the model makes/,
    );
  });

  test('a journal that cannot be written, and a disk nearly full', async () => {
    const file = join(bench.setup().dataDir, '..', 'not-a-folder');
    writeFileSync(file, 'a file where dataDir should be');
    const blocked = bench.setup({ dataDir: file });
    assertFails(
      await bench.doctor(blocked.config),
      'journal writable',
      /not-a-folder/,
      new RegExp(`Make ${file} a writable folder with free disk space \\(dataDir in the config\\)\\.`),
    );
    const full = bench.setup();
    assertFails(
      await bench.doctor(full.config, { freeBytes: () => 10 * 1024 * 1024 }),
      'journal writable',
      /has 10 MB free$/,
      /Free disk space \(at least 256 MB\) or move dataDir\./,
    );
    // The threshold is the doctor's to set: a real disk under a higher bar fails the same way.
    assertFails(
      await bench.doctor(full.config, { minFreeBytes: Number.MAX_SAFE_INTEGER }),
      'journal writable',
      /MB free$/,
      /Free disk space/,
    );
  });

  test('messages that have waited for hours to be stored', async () => {
    const setup = bench.setup();
    await bench.withJournal(setup, (journal) =>
      journal.recordMessages(
        [
          {
            bot: 'mythos',
            messageId: 'm1',
            source: 'discord',
            speakerKind: 'user',
            text: 'We moved to the house by the harbour',
            ts: NOW - 7 * 3_600_000,
          },
        ],
        NOW - 7 * 3_600_000,
      ),
    );
    assertFails(
      await bench.doctor(setup.config, { now: () => NOW }),
      'pending backlog',
      /1 message and 0 chunks wait; the oldest arrived 420 min ago$/,
      /Make sure `memory-pool serve` runs and reaches the store and the embedder/,
    );
  });

  test('listening off loopback without API keys', async () => {
    const setup = bench.setup({ extra: [`listen: { host: 0.0.0.0, port: ${await findFreePort()} }`] });
    // The config refuses it before any other check runs, naming the key and both fixes.
    assertFails(
      await bench.doctor(setup.config),
      'config valid',
      /listen\.host: "0\.0\.0\.0" is reachable from other machines.*Add apiKeys .* or use 127\.0\.0\.1/s,
      /Fix the keys named above\./,
    );
  });
});
