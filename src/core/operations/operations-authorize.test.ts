/**
 * @module The operation set holds only calls that authorize: each takes the caller's principal and refuses a
 * key without rights for the bot, so no face can read or change a bot's memory around the key checks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Principal } from '../../auth/api-key-auth.js';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { testBot } from '../../config/test-support/test-bot.js';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import { AuthError } from '../../errors/memory-pool-error.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../../logging/logger.js';
import { createMemoryPointStore } from '../../store/test-support/memory-point-store.js';
import { assembleService } from '../assemble-service.js';
import type { MemoryOperations } from './memory-operations.js';
import type { PeopleOperations } from './people-operations.js';

/** Every rights a key can have, but for the bot `other` only. */
const otherBotKey: Principal = {
  kind: 'key',
  key: { name: 'other', key: 'other-key-0123456789', bots: ['other'], sources: '*', scopes: ['admin'] },
};

/** One call per operation, each for the bot `mythos`, which the key may not touch. */
const CALLS: Record<
  Exclude<keyof MemoryOperations, 'viewer' | 'people'>,
  (ops: MemoryOperations) => unknown
> = {
  save: (ops) => ops.save(otherBotKey, 'mythos', { bot: 'mythos', messages: [] }),
  retrieve: (ops) => ops.retrieve(otherBotKey, 'mythos', { bot: 'mythos', query_text: 'x' } as never),
  forget: (ops) => ops.forget(otherBotKey, 'mythos', { bot: 'mythos', message_ids: ['m1'] } as never),
  countForgettable: (ops) => ops.countForgettable(otherBotKey, 'mythos', { field: 'userId', value: 'u' }),
  recordedAmong: (ops) => ops.recordedAmong(otherBotKey, 'mythos', ['m1']),
  journaledInChannel: (ops) =>
    ops.journaledInChannel(otherBotKey, 'mythos', { channelId: 'c1', fromTs: 0, toTs: 1 }),
  forgetLog: (ops) => ops.forgetLog(otherBotKey, 'mythos', undefined),
  stats: (ops) => ops.stats(otherBotKey, 'mythos'),
  countOwnPerson: (ops) => ops.countOwnPerson(otherBotKey, 'mythos', { discord_user_id: '1' }),
  forgetOwnPerson: (ops) => ops.forgetOwnPerson(otherBotKey, 'mythos', { discord_user_id: '1' }),
};

const account = { discord_user_id: '1' };
/** The same for the people operations. */
const PEOPLE_CALLS: Record<keyof PeopleOperations, (ops: PeopleOperations) => unknown> = {
  list: (ops) => ops.list(otherBotKey, 'mythos'),
  create: (ops) => ops.create(otherBotKey, 'mythos', { name: 'A', accounts: [account] }),
  update: (ops) => ops.update(otherBotKey, 'mythos', 'p1', { name: 'B' }),
  remove: (ops) => ops.remove(otherBotKey, 'mythos', 'p1'),
  createLinkCode: (ops) => ops.createLinkCode(otherBotKey, 'mythos', account),
  redeemLinkCode: (ops) => ops.redeemLinkCode(otherBotKey, 'mythos', { code: 'ABCDE-FGHJK', account }),
  linkCodeStatus: (ops) => ops.linkCodeStatus(otherBotKey, 'mythos', { code: 'ABCDE-FGHJK', account }),
  unlinkAccount: (ops) => ops.unlinkAccount(otherBotKey, 'mythos', 'p1', account),
  personOfAccount: (ops) => ops.personOfAccount(otherBotKey, 'mythos', account),
  linkedDiscordUserIds: (ops) => ops.linkedDiscordUserIds(otherBotKey, 'mythos'),
};

test('every operation in the set refuses a key without rights for the bot', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-operations-'));
  const journal = openSqliteJournal(dir);
  t.after(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const config = {
    embedding: { provider: 'hashing', dimensions: 16 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    apiKeys: [],
    bots: { mythos: testBot('mythos'), other: testBot('other') },
  } as unknown as MemoryPoolConfig;
  const service = await assembleService({
    config,
    store: createMemoryPointStore(),
    journal,
    embedder: new HashingEmbedder({ dimensions: 16 }),
    logger: createLogger({ level: 'silent' }),
    processMetrics: false,
  });
  t.after(() => service.close());
  const { operations } = service;
  const named = Object.keys(operations).filter((name) => name !== 'viewer' && name !== 'people');
  assert.deepEqual(named.sort(), Object.keys(CALLS).sort(), 'an operation this test does not call');
  for (const [name, call] of Object.entries(CALLS)) {
    await assert.rejects(
      async () => call(operations),
      (error: unknown) => error instanceof AuthError && error.code === 'forbidden',
      name,
    );
  }
  assert.deepEqual(Object.keys(operations.people).sort(), Object.keys(PEOPLE_CALLS).sort());
  for (const [name, call] of Object.entries(PEOPLE_CALLS)) {
    await assert.rejects(
      async () => call(operations.people),
      (error: unknown) => error instanceof AuthError && error.code === 'forbidden',
      `people.${name}`,
    );
  }
});
