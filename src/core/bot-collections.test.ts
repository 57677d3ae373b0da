import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { EmbeddingConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { NotFoundError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { BotCollections } from './bot-collections.js';

describe('BotCollections answers which collection and model a bot uses now', () => {
  let dir: string;
  let journal: Journal;
  let collections: BotCollections;
  const configured = new HashingEmbedder({ dimensions: 16 });
  const built: EmbeddingConfig[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-collections-'));
    journal = openSqliteJournal(dir);
    built.length = 0;
    collections = new BotCollections({
      bots: { mythos: testBot('mythos') },
      journal,
      configured: { embedder: configured, queryEmbedder: configured },
      build: (embedding) => {
        built.push(embedding);
        const dimensions = 'dimensions' in embedding ? embedding.dimensions : undefined;
        const embedder = new HashingEmbedder({ dimensions: dimensions ?? 16 });
        return { embedder, queryEmbedder: embedder };
      },
      logger: createLogger({ level: 'silent' }),
    });
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a bot never switched uses its configured collection and the configured model', async () => {
    assert.equal((await collections.current('mythos')).collection, 'mem_mythos');
    assert.equal(await collections.embedderFor('mem_mythos'), configured);
  });

  test('a switch another process commits is followed at the next call, with the model recorded for it', async () => {
    await journal.routes.beginReembed(
      'mem_mythos',
      'mem_mythos',
      'mem_mythos_32',
      '{"provider":"hashing","dimensions":32}',
      1,
    );
    assert.equal((await collections.current('mythos')).collection, 'mem_mythos', 'building is not switching');
    await journal.routes.switchTo('mem_mythos', 'mem_mythos_32', 2);
    assert.equal((await collections.current('mythos')).collection, 'mem_mythos_32');
    assert.equal((await collections.embedderFor('mem_mythos_32')).dimensions, 32);
    assert.equal((await collections.queryEmbedderFor('mem_mythos_32')).dimensions, 32);
    await collections.embedderFor('mem_mythos_32');
    assert.equal(built.length, 1, 'a recorded model is built once');
    await journal.routes.switchTo('mem_mythos', 'mem_mythos', 3);
    assert.equal(
      (await collections.current('mythos')).collection,
      'mem_mythos',
      'a rollback is followed too',
    );
  });

  test('an unknown bot is a 404 naming the configured bots', () => {
    assert.throws(
      () => collections.current('nobody'),
      (error: unknown) =>
        error instanceof NotFoundError &&
        error.code === 'unknown_bot' &&
        /configured bots: mythos/.test(error.message),
    );
  });
});
