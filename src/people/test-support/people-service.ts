/**
 * @module The assembled service over a given journal, for people tests that must run on both journal backends
 * (the in-process app over http/test-support's fake service: the in-memory store, the hashing embedder; the chunk
 * writer is flushed by the test, the rename runner runs as in production), and the two describe blocks that run a
 * test set on SQLite and Postgres.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiKeyConfig, BotConfig } from '../../config/config-types.js';
import type { JsonAnswer } from '../../http/test-support/call-json.js';
import { createFakeServiceDeps } from '../../http/test-support/fake-service-deps.js';
import type { Journal } from '../../journal/journal.js';
import { openPostgresJournal } from '../../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../../journal/test-support/start-postgres.js';
import type { MemoryPointStore } from '../../store/test-support/memory-point-store.js';

export interface PeopleServiceOptions {
  /** Default: a new in-memory store; pass one to keep it across starts, as Qdrant is. */
  readonly store?: MemoryPointStore;
  /** Default: none, so every call is the owner's; the first key given is the one `call` sends. */
  readonly apiKeys?: readonly ApiKeyConfig[];
}

/** Starts the service for `bot` over `journal`; its `close()` closes the journal too. */
export async function startPeopleService(
  journal: Journal,
  bot: BotConfig,
  options: PeopleServiceOptions = {},
) {
  const keys = options.apiKeys ?? [];
  const fake = await createFakeServiceDeps({
    bots: [bot],
    journal,
    ...(options.store === undefined ? {} : { store: options.store }),
    config: { apiKeys: [...keys] },
  });
  /** One request with `key` (default: the first configured; null: none), answering the status and the body. */
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    key: ApiKeyConfig | null = keys[0] ?? null,
  ): Promise<JsonAnswer> => {
    const response = await fake.app.request(path, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(key === null ? {} : { authorization: `Bearer ${key.key}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
  /** A call that must succeed (2xx); answers its JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const answer = await request(method, path, body);
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status}`);
    return answer.json;
  };
  /** Waits for the rename pass to queue what a change touched, then rewrites it. */
  const finishRenames = async (): Promise<void> => {
    for (let tries = 0; tries < 200; tries++) {
      if ((await journal.renames.progress()).every((bot) => bot.accountsWaiting === 0)) break;
      await sleep(50);
    }
    await fake.writer.runOnce({ flush: true });
    assert.deepEqual(await journal.renames.progress(), [], 'every rename done');
  };
  return { writer: fake.writer, store: fake.store, request, call, finishRenames, close: fake.close };
}

export type PeopleService = Awaited<ReturnType<typeof startPeopleService>>;

/**
 * Opens a journal: a new one each call, or with `name` the same one each time (a restart reads it again).
 */
export type OpenJournal = (name?: string) => Promise<Journal>;

/** Runs `define` (tests that open journals) on SQLite, and on Postgres when available. */
export function describeOnBothJournals(name: string, define: (open: OpenJournal) => void): void {
  describe(`${name}: SQLite`, () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'memory-pool-people-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    const dirs = new Map<string, string>();
    define(async (named) => {
      const folder = named === undefined ? undefined : dirs.get(named);
      const opened = folder ?? mkdtempSync(join(dir, 'journal-'));
      if (named !== undefined) dirs.set(named, opened);
      return openSqliteJournal(opened);
    });
  });
  describe(`${name}: Postgres`, { skip: skipWithoutPostgres }, () => {
    let server: TestPostgres;
    let databases = 0;
    const urls = new Map<string, string>();
    before(async () => {
      server = await startPostgres();
    });
    after(async () => {
      await server?.stop();
    });
    define(async (named) => {
      const known = named === undefined ? undefined : urls.get(named);
      const url = known ?? (await server.createDatabase(`people_${++databases}`));
      if (named !== undefined) urls.set(named, url);
      return openPostgresJournal(url);
    });
  });
}
