/**
 * @module How long a Discord bot is unheard when the replica holding its gateway is SIGKILLed, with the
 * production lease timings (TTL 15 s, renewed every 5 s): two leases and two real discord.js clients over one
 * SQLite journal (and, with --postgres, one Postgres database) against the fake gateway. Each round kills the
 * holder at a random point of its renewal period, posts a message meanwhile, and times the kill → the other
 * connected, and → the message back-filled. Prints each round and the medians.
 * Run: node --import tsx bench/discord-takeover.bench.ts [--rounds 3] [--postgres]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createCountingMemory } from '../src/interfaces/discord/test-support/counting-memory.js';
import { BOT_USER, guildPayload } from '../src/interfaces/discord/test-support/discord-harness.js';
import { startFakeDiscord } from '../src/interfaces/discord/test-support/fake-discord.js';
import {
  createGatewayReplicas,
  serveGeneralHistory,
} from '../src/interfaces/discord/test-support/gateway-replicas.js';
import type { Journal } from '../src/journal/journal.js';
import { openPostgresJournal } from '../src/journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';
import { startPostgres } from '../src/journal/test-support/start-postgres.js';
import { percentile } from './support/service-client.js';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, postgres: { type: 'boolean', default: false } },
});
const ROUNDS = Number(args.rounds);
const RENEW_MS = 5000;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

/** One round: returns [kill → connected, kill → back-filled] in ms. */
async function round(openJournal: () => Promise<Journal>): Promise<[number, number]> {
  const fake = await startFakeDiscord({ botUser: BOT_USER, guilds: [guildPayload()] });
  const { memory, saves } = createCountingMemory();
  const post = serveGeneralHistory(fake);
  const journals = [await openJournal(), await openJournal()];
  const replicas = createGatewayReplicas({ fake, journals, memory });
  try {
    for (const replica of replicas) await replica.start();
    const [holder, other] = replicas[0]?.connection ? replicas : [...replicas].reverse();
    await sleep(Math.random() * RENEW_MS);
    const killedAt = performance.now();
    await holder!.abandon();
    const id = await post('said while no replica listened', false);
    await until(() => other!.connection !== undefined);
    const connected = performance.now() - killedAt;
    await until(() => saves.has(id));
    return [connected, performance.now() - killedAt];
  } finally {
    for (const replica of replicas) await replica.close();
    for (const journal of journals) await journal.close();
    await fake.close();
  }
}

async function measure(name: string, openJournal: () => Promise<Journal>): Promise<void> {
  const connected: number[] = [];
  const backfilled: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const [c, b] = await round(openJournal);
    connected.push(c);
    backfilled.push(b);
    console.log(
      `${name} round ${r}: connected after ${(c / 1000).toFixed(1)} s, back-filled after ${(b / 1000).toFixed(1)} s`,
    );
  }
  console.log(
    `${name} median over ${ROUNDS}: connected ${(percentile(connected, 50) / 1000).toFixed(1)} s, back-filled ${(percentile(backfilled, 50) / 1000).toFixed(1)} s`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'mp-discord-takeover-'));
try {
  await measure('SQLite', async () => openSqliteJournal(dir));
  if (args.postgres) {
    const server = await startPostgres();
    try {
      const url = await server.createDatabase('discord_takeover');
      await measure('Postgres', () => openPostgresJournal(url));
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
