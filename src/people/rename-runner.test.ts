/**
 * @module The rename pass survives what a process goes through, on both journal backends: killed before its
 * transaction commits (its lease left behind, as a kill leaves it), the next process finishes it once that lease
 * runs out; a pass another replica holds is left to it; changes of one bot close together make one pass.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Journal } from '../journal/journal.js';
import { openPostgresJournal } from '../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';
import type { Logger } from '../logging/logger.js';
import { createRenameRunner, type RenameRunnerDeps } from './rename-runner.js';
import { renameLeaseName } from './run-rename-pass.js';

/** A logger that keeps what was logged at info. */
function recordingLogger(): { logger: Logger; passes: Record<string, unknown>[] } {
  const passes: Record<string, unknown>[] = [];
  const logger = {
    info: (fields: Record<string, unknown>) => passes.push(fields),
    warn: () => undefined,
  } as unknown as Logger;
  return { logger, passes };
}

/** `target` with some members replaced; the rest bound to it (the journals' classes keep private fields). */
function withOverrides<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (key in overrides) return overrides[key as keyof T];
      const value: unknown = Reflect.get(object, key);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

let botCount = 0;

/** A bot with `count` stored chunks, each one message of Discord user 1234. */
async function storeChunks(journal: Journal, count: number): Promise<string> {
  const bot = `runner${process.pid}x${++botCount}`;
  const ids = Array.from({ length: count }, (_, i) => `m${i}`);
  await journal.recordMessages(
    ids.map((id) => ({
      bot,
      source: 'discord',
      messageId: id,
      speakerKind: 'user',
      text: id,
      ts: 1,
      userId: '1234',
    })),
    1,
  );
  for (const id of ids) {
    await journal.chunks.planChunk(
      { chunkId: `${bot}-${id}`, bot, collection: 'col', source: 'discord', messageIds: [id] },
      1,
    );
    await journal.chunks.markChunkStored(`${bot}-${id}`, 0, 2);
  }
  return bot;
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return;
    await sleep(25);
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Links Discord user 1234, who wrote every chunk `storeChunks` stores, to the person Anna. */
const linkAnna = (journal: Journal, bot: string) =>
  journal.people.create(
    bot,
    { id: 'p1', name: 'Anna', accounts: [{ kind: 'user', value: 'discord:1234' }] },
    Date.now(),
  );

/** A runner on `journal` that records its passes; no writer to wake and no wait for a request's age by default. */
function recordingRunner(journal: Journal, options: Partial<RenameRunnerDeps> = {}) {
  const { logger, passes } = recordingLogger();
  const runner = createRenameRunner({
    journal,
    wakeWriter: () => undefined,
    logger,
    settleMs: 0,
    minAgeMs: 0,
    ...options,
  });
  return { runner, summary: () => passes.map((p) => [p.bot, p.accounts, p.chunks]) };
}

function defineRunnerCases(open: () => Promise<Journal>): void {
  test('a pass killed before its transaction committed is finished by the next process, once its lease runs out', async () => {
    const first = await open();
    const bot = await storeChunks(first, 3);
    await linkAnna(first, bot);
    // The first process dies inside its pass: its transaction never commits and its lease is never given back.
    const killed = withOverrides(first, {
      renames: withOverrides(first.renames, { queueRewrites: () => Promise.reject(new Error('killed')) }),
      leases: withOverrides(first.leases, { release: () => Promise.resolve() }),
    });
    const { runner: dying } = recordingRunner(killed, { leaseMs: 600 });
    dying.schedule(bot);
    await dying.settled();
    await dying.close();
    assert.equal((await first.renames.requests(bot)).length, 1, 'the request is still there');
    assert.ok(
      await first.leases.holderOf(renameLeaseName(bot), Date.now()),
      'and the dead pass still holds the lease',
    );
    await first.close();

    const second = await open();
    let wakes = 0;
    const { runner: next, summary } = recordingRunner(second, {
      wakeWriter: () => wakes++,
      settleMs: 20,
      pollMs: 50,
    });
    try {
      next.start();
      await waitFor(async () => summary().length > 0, 'the pass');
      assert.deepEqual(await second.renames.requests(bot), []);
      assert.deepEqual(summary(), [[bot, 1, 3]]);
      assert.ok(wakes >= 1, 'the chunk writer is woken');
      assert.deepEqual(
        (await second.renames.progress()).find((p) => p.bot === bot),
        {
          bot,
          accountsWaiting: 0,
          chunksLeft: 3,
        },
      );
    } finally {
      await next.close();
      await second.close();
    }
  });

  test('a pass killed between its slices keeps the requests: what it queued stays queued, the next pass queues all', async () => {
    const journal = await open();
    try {
      const bot = await storeChunks(journal, 3);
      await linkAnna(journal, bot);
      let calls = 0;
      const dyingAtSecond = withOverrides(journal, {
        renames: withOverrides(journal.renames, {
          queueRewrites: (...args: Parameters<typeof journal.renames.queueRewrites>) =>
            ++calls === 2 ? Promise.reject(new Error('killed')) : journal.renames.queueRewrites(...args),
        }),
      });
      const { runner: first } = recordingRunner(dyingAtSecond, { sliceSize: 2 });
      first.schedule(bot);
      await first.settled();
      await first.close();
      assert.equal((await journal.renames.requests(bot)).length, 1, 'the request waits for the last slice');
      const left = async () => (await journal.renames.progress()).find((p) => p.bot === bot);
      assert.deepEqual(await left(), { bot, accountsWaiting: 1, chunksLeft: 2 });
      const { runner: next, summary } = recordingRunner(journal, { sliceSize: 2 });
      next.schedule(bot);
      await next.settled();
      await next.close();
      assert.deepEqual(summary(), [[bot, 1, 3]]);
      assert.deepEqual(await left(), { bot, accountsWaiting: 0, chunksLeft: 3 });
    } finally {
      await journal.close();
    }
  });

  test("only the replica holding a bot's pass lease runs its pass; another takes over once it is given back", async () => {
    const journal = await open();
    const { runner, summary } = recordingRunner(journal, { settleMs: 20 });
    try {
      const bot = await storeChunks(journal, 1);
      await linkAnna(journal, bot);
      assert.ok(await journal.leases.acquire(renameLeaseName(bot), 'other-replica', 60_000, Date.now()));
      runner.schedule(bot);
      await sleep(300); // many tries, each finding the lease taken
      assert.equal(summary().length, 0, 'no pass while another replica holds the lease');
      assert.equal((await journal.renames.requests(bot)).length, 1);
      await journal.leases.release(renameLeaseName(bot), 'other-replica');
      await runner.settled();
      assert.deepEqual(summary(), [[bot, 1, 1]]);
    } finally {
      await runner.close();
      await journal.close();
    }
  });

  test('changes of one bot close together make one pass, over every account they touched', async () => {
    const journal = await open();
    const { runner, summary } = recordingRunner(journal, { settleMs: 300 });
    try {
      const bot = await storeChunks(journal, 2);
      await linkAnna(journal, bot);
      runner.schedule(bot);
      await journal.people.create(
        bot,
        { id: 'p2', name: 'Bob', accounts: [{ kind: 'user', value: 'tg:1' }] },
        Date.now(),
      );
      runner.schedule(bot);
      await runner.settled();
      assert.deepEqual(summary(), [[bot, 2, 2]]);
      assert.deepEqual(await journal.renames.requests(bot), []);
    } finally {
      await runner.close();
      await journal.close();
    }
  });
}

describe('rename runner: SQLite', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-renames-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  defineRunnerCases(async () => openSqliteJournal(dir));
});

describe('rename runner: Postgres (each process its own pool)', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let url: string;
  before(async () => {
    server = await startPostgres();
    url = await server.createDatabase('rename_runner');
  });
  after(() => server?.stop());
  defineRunnerCases(() => openPostgresJournal(url));
});
