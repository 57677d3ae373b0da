/** @module serve on a Postgres journal with Discord: the state and the gateway lease live in that journal. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  BOT_USER,
  guildPayload,
  testDiscordConfig,
} from '../interfaces/discord/test-support/discord-harness.js';
import { startFakeDiscord } from '../interfaces/discord/test-support/fake-discord.js';
import { writeLegacyDiscordFile } from '../interfaces/discord/test-support/legacy-discord-file.js';
import { MOVED_SUFFIX } from '../journal/move-legacy-discord-state.js';
import { openPostgresJournal } from '../journal/postgres/postgres-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';
import { startTestService } from './test-support/start-test-service.js';

describe('serve with Discord on the Postgres journal', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let dir = '';
  before(async () => {
    server = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-discord-pg-'));
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a replica upgraded from one box moves its dataDir's discord.sqlite into Postgres, and writes no SQLite journal", {
    timeout: 60_000,
  }, async () => {
    const url = await server.createDatabase('discord_upgrade');
    const dataDir = join(dir, 'service');
    mkdirSync(dataDir, { recursive: true });
    writeLegacyDiscordFile(dataDir, true);
    const fake = await startFakeDiscord({ botUser: BOT_USER, guilds: [guildPayload()] });
    try {
      const service = await startTestService({
        dir,
        config: { journal: { postgres: { url } }, discord: testDiscordConfig() },
        discord: { restApi: fake.restBase, proxyGraceMs: 300, backfillPageDelayMs: 5 },
      });
      try {
        assert.ok(service.discord !== undefined, 'connected: the gateway lease is free on a new journal');
        await service.discord.idle();
      } finally {
        await service.stop(); // keeps the data folder, to look in it
      }
    } finally {
      await fake.close();
    }
    assert.ok(existsSync(join(dataDir, `discord.sqlite${MOVED_SUFFIX}`)));
    assert.ok(!existsSync(join(dataDir, 'journal.sqlite')), 'the one journal is Postgres');
    const journal = await openPostgresJournal(url);
    try {
      const state = await journal.discord.readState('mythos');
      assert.deepEqual(state.optedOut, ['ana']);
      assert.deepEqual(state.channelRules, [
        { channelId: 'offtopic', rule: 'allow' },
        { channelId: 'secret', rule: 'deny' },
      ]);
      assert.ok(state.connectedUntil !== undefined, 'the holder noted its connection in Postgres');
    } finally {
      await journal.close();
    }
  });
});
