import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runDoctor } from '../cli/commands/doctor-command.js';
import { runStats } from '../cli/commands/stats-command.js';
import { captureOutput, writeDataToolConfig } from '../cli/commands/test-support/data-tool-fixture.js';
import { ConfigError } from '../errors/memory-pool-error.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';
import { startTestService, type TestService } from './test-support/start-test-service.js';

const DAY = Date.UTC(2026, 10, 30, 12);
// The test server trusts every login; a password in the URL is still one the service must never show.
const PASSWORD = 'pg-pass-Secret';

/** `url` with a password in its userinfo. */
const withPassword = (url: string) => url.replace('postgres@', `postgres:${PASSWORD}@`);

const window = (channel: string, ids: readonly [string, string], texts: readonly [string, string]) => ({
  bot: 'mythos',
  source: 'discord',
  messages: ids.map((id, i) => ({
    speaker_kind: i === 0 ? 'user' : 'self',
    text: texts[i],
    message_id: id,
    ts: DAY + i * 60_000,
    channel_id: channel,
    guild_id: 'g1',
  })),
});
const CAT = window('c1', ['1001', '1002'], ['I adopted a grey cat named Pixel', 'Pixel is a lovely name']);
const GARDEN = window('c2', ['2001', '2002'], ['My garden grows red tomatoes', 'Tomatoes need sun']);

/** The message ids of every hit /retrieve gives for `query`. */
async function recall(service: TestService, query: string): Promise<string[]> {
  const answer = await service.post('/retrieve', { bot: 'mythos', query_text: query });
  assert.equal(answer.status, 200);
  return answer.json.hits.map((hit: { messageIds: string }) => hit.messageIds);
}

describe('serve on the Postgres journal (journal.postgres.url)', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let url: string;
  const dirs: string[] = [];
  before(async () => {
    server = await startPostgres();
    url = withPassword(await server.createDatabase('serve'));
  });
  after(async () => {
    await server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('/save, /retrieve and /forget round trip; a restart on the same database keeps everything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memory-pool-serve-pg-'));
    dirs.push(dir);
    const config = { journal: { postgres: { url } } };
    const first = await startTestService({ dir, config });
    try {
      assert.equal((await first.post('/save', CAT)).json.accepted, 2);
      assert.equal((await first.post('/save', GARDEN)).json.accepted, 2);
      await first.writer.runOnce({ flush: true });
      assert.deepEqual(await recall(first, 'grey cat named Pixel'), ['1001,1002', '2001,2002']);
      const forgot = await first.post('/forget', { bot: 'mythos', message_ids: ['2001', '2002'] });
      assert.equal(forgot.status, 200);
      assert.equal(forgot.json.messages_forgotten, 2);
      assert.deepEqual(await recall(first, 'red tomatoes in my garden'), ['1001,1002']);
    } finally {
      await first.stop();
    }
    // Nothing went to SQLite: the journal is the Postgres database.
    assert.equal(existsSync(join(first.config.dataDir, 'journal.sqlite')), false);

    const second = await startTestService({ dir, config });
    try {
      assert.deepEqual(await recall(second, 'grey cat named Pixel'), ['1001,1002']);
      assert.deepEqual(
        (await second.post('/save', CAT)).json,
        { ok: true, accepted: 0, duplicates: 2, edited: 0, forgotten: 0 },
        'the messages saved before the restart are known',
      );
      assert.deepEqual(
        (await second.post('/save', GARDEN)).json,
        { ok: true, accepted: 0, duplicates: 0, edited: 0, forgotten: 2 },
        'a forget made before the restart still holds',
      );
      const stats = (await (await second.app.request('/bots/mythos/stats')).json()) as {
        messages: { forgotten: number };
        chunks: { planned: number; stored: number };
      };
      assert.equal(stats.messages.forgotten, 2);
      assert.deepEqual(stats.chunks, { planned: 0, stored: 1 });

      // The CLI opens the same journal: stats reads it, doctor writes to it.
      const file = await writeDataToolConfig(dir, 'cli', { service: second });
      appendFileSync(file, `journal: { postgres: { url: ${JSON.stringify(url)} } }\n`);
      const io = captureOutput();
      assert.equal(await runStats({ config: file, json: true }, io), 0, io.text().err);
      const [cli] = JSON.parse(io.text().out).bots;
      assert.deepEqual([cli.messagesBySource, cli.forgotten], [{ discord: 2 }, 2]);
      const checked = captureOutput();
      await runDoctor({ config: file, json: true }, checked);
      const journalCheck = JSON.parse(checked.text().out).checks.find(
        (check: { name: string }) => check.name === 'journal writable',
      );
      assert.equal(journalCheck.ok, true, journalCheck.detail);
      // doctor names the journal by its URL, the password masked, and says how it knew (a probe row).
      assert.match(
        journalCheck.detail,
        /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/serve(_\d+_\d+)? takes writes \(a probe row written and removed\)$/,
      );
      assert.ok(!checked.text().out.includes(PASSWORD), 'the doctor never shows the password');
    } finally {
      await second.stop();
    }
  });

  test('a server that cannot be reached stops the start with one error naming journal.postgres.url', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memory-pool-serve-pg-'));
    dirs.push(dir);
    // A port nothing listens on: the database's own, with the port changed to 1.
    const unreachable = url.replace(/:\d+\//, ':1/');
    await assert.rejects(
      startTestService({ dir, config: { journal: { postgres: { url: unreachable } } } }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.match(error.message, /journal\.postgres\.url/);
        assert.match(error.message, /cannot open the Postgres journal/);
        assert.ok(!error.message.includes(PASSWORD), `the password leaked: ${error.message}`);
        return true;
      },
    );
  });
});

describe('/ready while the Postgres journal is down', { skip: skipWithoutPostgres }, () => {
  test('names the Postgres journal, never its password', async () => {
    const server = await startPostgres({ dedicated: true }); // stopped below
    const dir = mkdtempSync(join(tmpdir(), 'memory-pool-serve-pg-'));
    const url = withPassword(await server.createDatabase('ready'));
    const service = await startTestService({ dir, config: { journal: { postgres: { url } } } });
    try {
      assert.equal((await service.app.request('/ready')).status, 200);
      await server.stop();
      const answer = await service.app.request('/ready');
      assert.equal(answer.status, 503);
      const text = await answer.text();
      assert.ok(!text.includes(PASSWORD), `the password leaked: ${text}`);
      const { checks } = JSON.parse(text) as { checks: Record<string, { ok: boolean; error?: string }> };
      assert.equal(checks.journal?.ok, false);
      assert.match(checks.journal?.error ?? '', /^journal \(Postgres\) unreachable/);
    } finally {
      await service.stop();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
