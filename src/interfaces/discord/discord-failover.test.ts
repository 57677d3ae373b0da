/**
 * Two replicas of one bot over one journal, each with its gateway lease and a real discord.js client, against
 * one fake Discord: only the lease holder connects; killed (no release), the other takes over once the lease
 * expires, back-fills what was said meanwhile, and every message is recorded exactly once. Short TTLs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Journal } from '../../journal/journal.js';
import { openPostgresJournal } from '../../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { skipWithoutPostgres, startPostgres } from '../../journal/test-support/start-postgres.js';
import type { DiscordGatewayLease } from './discord-gateway-lease.js';
import { createCountingMemory } from './test-support/counting-memory.js';
import { BOT_USER, guildPayload } from './test-support/discord-harness.js';
import { startFakeDiscord } from './test-support/fake-discord.js';
import { createGatewayReplicas, serveGeneralHistory, until } from './test-support/gateway-replicas.js';

const unused = () => Promise.reject(new Error('not used'));

/** Runs the failover on two connections to one journal. */
async function failOver(openJournal: () => Promise<Journal>): Promise<void> {
  const fake = await startFakeDiscord({ botUser: BOT_USER, guilds: [guildPayload()] });
  const { memory, saves, texts } = createCountingMemory();
  const post = serveGeneralHistory(fake);
  const journals = [await openJournal(), await openJournal()];
  const replicas = createGatewayReplicas({ fake, journals, memory, ttlMs: 1500, renewMs: 250 });
  const [first, second] = replicas as [DiscordGatewayLease, DiscordGatewayLease];
  try {
    await first.start();
    await second.start();
    assert.ok(first.connection !== undefined, 'the first replica took the lease and connected');
    assert.ok(second.connection === undefined, 'the second waits');
    assert.equal(fake.identifications, 1);

    const before = [
      await post('before: the ferry leaves at nine', true),
      await post('before: bring a coat', true),
    ];
    await until(() => before.every((id) => saves.has(id)));
    await first.abandon(); // SIGKILL: no release, no last words

    const meanwhile = [
      await post('meanwhile: the cafe moved', false),
      await post('meanwhile: Ana got the job', false),
    ];
    await until(() => second.connection !== undefined);
    assert.equal(fake.identifications, 2);
    await until(() => meanwhile.every((id) => saves.has(id)));
    const after = await post('after: see you at the pier', true);
    await until(() => saves.has(after));
    await replicas[1]?.connection?.idle(); // (`second.connection` is narrowed to undefined above)

    assert.deepEqual(
      [...saves].sort(),
      [...before, ...meanwhile, after].map((id) => [id, 1]).sort(),
      'every message recorded exactly once',
    );
    assert.match(texts.get(meanwhile[1]!) ?? '', /Ana got the job/);
    assert.equal(await journals[1]!.leases.holderOf('discord-gateway:mythos', Date.now()), 'replica-1');
  } finally {
    for (const replica of replicas) await replica.close();
    for (const journal of journals) await journal.close();
    await fake.close();
  }
}

describe('Discord failover between two replicas', () => {
  test('a holder that cannot renew its lease disconnects at once; the other connects once it expires', {
    timeout: 30_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-discord-lease-'));
    const fake = await startFakeDiscord({ botUser: BOT_USER, guilds: [guildPayload()] });
    const { memory } = createCountingMemory();
    const journals = [openSqliteJournal(dir), openSqliteJournal(dir)];
    let unreachable = false;
    const firstReadyAtTakeover: boolean[] = [];
    const replicas = createGatewayReplicas({
      fake,
      journals,
      memory,
      ttlMs: 1500,
      renewMs: 250,
      // The first replica loses its journal when told: its renewals fail.
      leasesOf: (i, journal) =>
        i === 0
          ? {
              acquire: (...args) => (unreachable ? unused() : journal.leases.acquire(...args)),
              release: (...args) => journal.leases.release(...args),
            }
          : journal.leases,
      onConnect: (i) => {
        if (i === 1) firstReadyAtTakeover.push(replicas[0]?.connection?.client.isReady() ?? false);
      },
    });
    try {
      for (const replica of replicas) await replica.start();
      const client = replicas[0]?.connection?.client;
      assert.ok(client?.isReady());
      unreachable = true;
      await until(() => replicas[0]?.connection === undefined);
      assert.ok(!client.isReady(), 'its gateway is closed');
      await until(() => replicas[1]?.connection !== undefined);
      assert.deepEqual(firstReadyAtTakeover, [false], 'closed before the other replica began to connect');
      assert.equal(fake.identifications, 2);
    } finally {
      for (const replica of replicas) await replica.close();
      for (const journal of journals) await journal.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('SQLite: two connections to one journal file', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-discord-failover-'));
    try {
      await failOver(async () => openSqliteJournal(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Postgres: two pools to one database', { timeout: 60_000, skip: skipWithoutPostgres }, async () => {
    const server = await startPostgres();
    try {
      const url = await server.createDatabase('discord_failover');
      await failOver(() => openPostgresJournal(url));
    } finally {
      await server.stop();
    }
  });
});
