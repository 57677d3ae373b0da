/** @module Regression (review s24, finding 1): a renewal that never answers still disconnects, and close() returns. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../logging/logger.js';
import { DiscordGatewayLease } from './discord-gateway-lease.js';
import type { DiscordConnection } from './start-discord.js';

const logger = createLogger({ level: 'silent' });

test('a renewal that hangs (journal partitioned) disconnects before the TTL passes, and close() returns', async () => {
  let calls = 0;
  let closed = false;
  const leases = {
    // The first acquire answers; later ones never do, as with a partition to the journal.
    acquire: () => (++calls === 1 ? Promise.resolve(true) : new Promise<boolean>(() => {})),
    release: async () => {},
  };
  const lease = new DiscordGatewayLease({
    leases,
    bot: 'b',
    logger,
    ttlMs: 300,
    renewMs: 100,
    connect: async () =>
      ({
        state: { markConnected: async () => {}, refresh: async () => {} },
        close: async () => {
          closed = true;
        },
        client: { destroy: async () => {} },
      }) as unknown as DiscordConnection,
  });
  await lease.start();
  await sleep(1000); // Past three TTLs: another replica reaching the journal has taken the lease by now.
  const stillConnected = lease.connection !== undefined || !closed;
  const closedInTime = await Promise.race([lease.close().then(() => true), sleep(2000).then(() => false)]);
  void lease.abandon();
  assert.equal(closedInTime, true, 'close() has not returned 2 s later: it waits on the hung renewal');
  assert.equal(stillConnected, false, `still connected after the TTL; acquire calls=${calls}`);
});

test('each renewal re-reads the Discord state, so opt-outs written by another replica apply', async () => {
  let refreshes = 0;
  const lease = new DiscordGatewayLease({
    leases: { acquire: async () => true, release: async () => {} },
    bot: 'b',
    logger,
    ttlMs: 300,
    renewMs: 50,
    connect: async () =>
      ({
        state: {
          markConnected: async () => {},
          refresh: async () => {
            refreshes += 1;
          },
        },
        close: async () => {},
        client: { destroy: async () => {} },
      }) as unknown as DiscordConnection,
  });
  await lease.start();
  await sleep(300);
  await lease.close();
  assert.ok(refreshes > 0, 'the holder never re-read the state');
});

test('a clean stop keeps the lease renewed, and leaseHeld() true, until the connection is closed (review s26, 3)', async () => {
  let released = false;
  let leaseHeld: (() => boolean) | undefined;
  const seenDuringClose: { held: boolean; released: boolean }[] = [];
  const lease = new DiscordGatewayLease({
    leases: {
      acquire: async () => !released,
      release: async () => {
        released = true;
      },
    },
    bot: 'b',
    logger,
    ttlMs: 400,
    renewMs: 100,
    connect: async (held) => {
      leaseHeld = held;
      return {
        state: { markConnected: async () => {}, refresh: async () => {} },
        // A close waits for the companion's replies in flight (seconds with a local model), the gateway still
        // open: events arriving meanwhile (deletes too) ask leaseHeld() before they are recorded.
        close: async () => {
          await sleep(600);
          seenDuringClose.push({ held: leaseHeld?.() ?? false, released });
        },
        client: { destroy: async () => {} },
      } as unknown as DiscordConnection;
    },
  });
  await lease.start();
  await lease.close();
  assert.deepEqual(seenDuringClose, [{ held: true, released: false }]);
  assert.equal(released, true, 'the lease is given up once closed');
  assert.equal(leaseHeld?.(), false, 'and no longer held after');
});

test('a connection closing after the lease was lost never reads a later re-take as its own (review s26, 5)', async () => {
  // Renewals: taken, lost once (the first connection is closed at once), then taken again (a second connects).
  const answers = [true, false];
  const helds: (() => boolean)[] = [];
  const lease = new DiscordGatewayLease({
    leases: { acquire: async () => answers.shift() ?? true, release: async () => {} },
    bot: 'b',
    logger,
    ttlMs: 400,
    renewMs: 50,
    connect: async (held) => {
      helds.push(held);
      return {
        state: { markConnected: async () => {}, refresh: async () => {} },
        close: async () => {},
        client: { destroy: async () => {} },
      } as unknown as DiscordConnection;
    },
  });
  await lease.start();
  while (helds.length < 2 || lease.connection === undefined) await sleep(20);
  const [first, second] = helds as [() => boolean, () => boolean];
  const seen = { first: first(), second: second() };
  await lease.close();
  assert.deepEqual(seen, { first: false, second: true });
});

test('a stop whose drain hangs renews for at most drainMs, then the lease lapses for another replica (review s26 final, 1)', async () => {
  let renewals = 0;
  let closing = false;
  let closedAtOnce = false;
  const lease = new DiscordGatewayLease({
    leases: {
      acquire: async () => {
        if (closing) renewals += 1;
        return true;
      },
      release: async () => {},
    },
    bot: 'b',
    logger,
    ttlMs: 300,
    renewMs: 100,
    drainMs: 200,
    connect: async () =>
      ({
        state: { markConnected: async () => {}, refresh: async () => {} },
        // A reply that never ends: the drain never does either, unless closed at once.
        close: (options?: { atOnce?: boolean }) => {
          if (options?.atOnce) closedAtOnce = true;
          return new Promise<void>(() => {});
        },
        client: { destroy: async () => {} },
      }) as unknown as DiscordConnection,
  });
  await lease.start();
  closing = true;
  void lease.close();
  await sleep(1_000);
  assert.ok(renewals <= 4, `renewals stop after the drain budget (${renewals} in 1 s, 10 without it)`);
  assert.equal(closedAtOnce, true, 'the watchdog then closes the connection at once');
});
