/**
 * @module Review s24 finding 1's last part: the gateway lease's local deadline is checked before each event, not
 * only by a timer. A process whose event loop froze past the deadline resumes with its socket's buffered events
 * before any timer runs; it must neither record nor forget them (another replica may have taken over).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Events } from 'discord.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../../logging/logger.js';
import { DiscordGatewayLease } from './discord-gateway-lease.js';
import { type DiscordConnection, startDiscord } from './start-discord.js';
import { createCountingMemory } from './test-support/counting-memory.js';
import {
  BOT_USER,
  GENERAL,
  guildPayload,
  messagePayload,
  testDiscordConfig,
} from './test-support/discord-harness.js';
import { startFakeDiscord } from './test-support/fake-discord.js';

const logger = createLogger({ level: 'silent' });

test('the lease tells its connection it ran out as soon as the local deadline passes, timers or not', async () => {
  let acquires = 0;
  const leases = {
    // The first renewal answers; the next never does (a partitioned journal).
    acquire: () => (++acquires === 1 ? Promise.resolve(true) : new Promise<boolean>(() => {})),
    release: async () => {},
  };
  let leaseHeld: (() => boolean) | undefined;
  const connection = {
    client: { destroy: async () => {} },
    state: { markConnected: async () => {}, refresh: async () => {} },
    idle: async () => {},
    close: async () => {},
  } as unknown as DiscordConnection;
  const lease = new DiscordGatewayLease({
    leases,
    bot: 'mythos',
    logger,
    ttlMs: 400,
    renewMs: 100,
    connect: async (held) => {
      leaseHeld = held;
      return connection;
    },
  });
  await lease.start();
  try {
    assert.equal(leaseHeld?.(), true, 'held just after the renewal');
    // A frozen event loop: the watchdog's timer cannot fire until this returns.
    const frozeAt = performance.now();
    while (performance.now() - frozeAt < 400);
    assert.equal(leaseHeld?.(), false, 'past the local deadline (TTL minus a renewal period)');
  } finally {
    await lease.close();
  }
});

test('once the lease ran out locally, the recorder neither records nor forgets', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-discord-deadline-'));
  const journal = openSqliteJournal(dir);
  const fake = await startFakeDiscord({ botUser: BOT_USER, guilds: [guildPayload()] });
  const { memory, saves, forgotten } = createCountingMemory();
  let held = true;
  const discord = await startDiscord({
    config: testDiscordConfig({ channels: [GENERAL], commands: 'off' }),
    memory,
    store: journal.discord,
    logger,
    restApi: fake.restBase,
    proxyGraceMs: 0,
    leaseHeld: () => held,
  });
  t.after(async () => {
    await discord.close();
    await journal.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const seen = new Set<number>();
  discord.client.on(Events.Raw, (packet: { s?: number }) => {
    if (packet.s !== undefined) seen.add(packet.s);
  });
  /** Dispatches a packet and waits until the client and the recorder have handled it. */
  const send = async (type: string, data: unknown) => {
    const sequence = await fake.dispatch(type, data);
    while (!seen.has(sequence)) await nextTurn();
    await nextTurn();
    await discord.idle();
  };

  const before = messagePayload({ content: 'recorded while the lease was ours' });
  await send('MESSAGE_CREATE', before);
  assert.equal(saves.get(before.id as string), 1);

  held = false;
  const after = messagePayload({ content: 'said after the deadline' });
  await send('MESSAGE_CREATE', after);
  await send('MESSAGE_DELETE', { id: before.id, channel_id: GENERAL, guild_id: guildPayload().id });
  assert.equal(saves.has(after.id as string), false, 'not recorded');
  assert.deepEqual(forgotten, [], 'nothing forgotten');
});
