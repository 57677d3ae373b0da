import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createHolderId } from '../runtime/holder-id.js';
import { holdLease, runUnderLease } from './hold-lease.js';
import type { Journal, JournalLeases } from './journal.js';
import { openSqliteJournal } from './sqlite/sqlite-journal.js';

describe('holdLease', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-lease-'));
    journal = openSqliteJournal(dir);
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('one holder at a time; released, the next one takes it', async () => {
    const first = await holdLease(journal.leases, 'reembed:mem_a', 'replica-1');
    assert.ok(first);
    assert.equal(await holdLease(journal.leases, 'reembed:mem_a', 'replica-2'), undefined);
    assert.ok(await holdLease(journal.leases, 'reembed:mem_b', 'replica-2'), 'another name is free');
    await first.release();
    const second = await holdLease(journal.leases, 'reembed:mem_a', 'replica-2');
    assert.ok(second);
    await second.release();
  });

  test("renewed while held, so it outlives its first expiry; a dead holder's expires", async () => {
    let clock = 1_000_000;
    const renewals: (() => void)[] = [];
    const leases: JournalLeases = {
      acquire: async (name, holder, ttlMs, now) => {
        const taken = await journal.leases.acquire(name, holder, ttlMs, now);
        renewals.shift()?.();
        return taken;
      },
      release: (name, holder) => journal.leases.release(name, holder),
      holderOf: (name, now) => journal.leases.holderOf(name, now),
    };
    const nextRenewal = () => new Promise<void>((resolve) => renewals.push(resolve));
    const held = await holdLease(leases, 'pass', 'live', { ttlMs: 90, now: () => clock });
    assert.ok(held);
    clock += 60;
    // The renewal timer does not keep a process alive (unref); this test waits for it, so it keeps the loop open.
    const keepAlive = setTimeout(() => {}, 10_000);
    await nextRenewal();
    clearTimeout(keepAlive);
    // Past the first expiry (clock + 90): only the renewal keeps it.
    clock += 60;
    assert.equal(await journal.leases.holderOf('pass', clock), 'live');
    assert.equal(held.held, true);
    await held.release();
    // A holder that never renews (it died): its lease passes to another once it expires.
    await journal.leases.acquire('pass', 'dead', 90, clock);
    assert.equal(await holdLease(journal.leases, 'pass', 'next', { now: () => clock }), undefined);
    const taken = await holdLease(journal.leases, 'pass', 'next', { now: () => clock + 91 });
    assert.ok(taken);
    await taken.release();
  });

  test('renewals failing past its life lose the lease, though the wall clock was stepped back meanwhile', async () => {
    let wall = 1_000_000;
    let monotonic = 0;
    let journalUp = true;
    const leases: JournalLeases = {
      acquire: async (name, holder, ttlMs, now) => {
        if (!journalUp) throw new Error('the journal did not answer');
        return journal.leases.acquire(name, holder, ttlMs, now);
      },
      release: (name, holder) => journal.leases.release(name, holder),
      holderOf: (name, now) => journal.leases.holderOf(name, now),
    };
    const held = await holdLease(leases, 'pass', 'stepped', {
      ttlMs: 90,
      now: () => wall,
      elapsed: () => monotonic,
    });
    assert.ok(held);
    journalUp = false;
    // 100 ms pass (past the 90 ms life) while NTP steps the wall clock back an hour.
    monotonic += 100;
    wall -= 3_600_000;
    assert.equal(await held.check(), false, 'still held on a wall clock that went back');
    journalUp = true;
    await held.release();
  });

  test('runUnderLease holds the lease while its work runs and gives it back after, even when the work throws', async () => {
    const lease = { name: 'reindex:mem_a', what: 'reindex of bot a', field: '--bot' };
    let holderDuring: string | undefined;
    await assert.rejects(
      runUnderLease(journal.leases, lease, async () => {
        holderDuring = await journal.leases.holderOf('reindex:mem_a', Date.now());
        throw new Error('the store went away');
      }),
      /the store went away/,
    );
    assert.match(holderDuring ?? '', new RegExp(`:${process.pid}:`));
    assert.equal(await journal.leases.holderOf('reindex:mem_a', Date.now()), undefined);
    assert.equal(await runUnderLease(journal.leases, lease, async () => 'ran'), 'ran');
  });

  test('holder ids differ between processes and restarts', () => {
    assert.notEqual(createHolderId(), createHolderId());
    assert.match(createHolderId(), new RegExp(`:${process.pid}:`));
  });
});
