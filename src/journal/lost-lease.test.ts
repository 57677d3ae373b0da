/**
 * @module Review s24 finding 4: a pass that lost its lease (another holder took it after its renewals failed
 * or stalled) stops before its next irreversible step with a 409 naming the new holder.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import { holdLease, runUnderLease } from './hold-lease.js';
import type { JournalLeases } from './journal.js';
import { openSqliteJournal } from './sqlite/sqlite-journal.js';

const lease = { name: 'reembed:mem_mythos', what: 'memory-pool reembed of bot mythos', field: '--bot' };

test('a pass whose lease another holder took stops before its irreversible step, naming the holder', async () => {
  const journal = openSqliteJournal(mkdtempSync(join(tmpdir(), 'lost-lease-')));
  let switched = false;
  try {
    await assert.rejects(
      runUnderLease(journal.leases, lease, async (guard) => {
        await guard.ensureHeld('recording the reembed'); // still held: goes on
        // 61 s later (renewals lost to a journal outage): a second reembed on another machine takes it.
        assert.ok(
          await journal.leases.acquire(lease.name, 'other-host:77:abcd', 60_000, Date.now() + 61_000),
        );
        await guard.ensureHeld('the switch');
        switched = true;
      }),
      (error: unknown) =>
        isMemoryPoolError(error) &&
        error.status === 409 &&
        error.message.includes('other-host:77:abcd') &&
        error.message.includes('the switch'),
    );
    assert.equal(switched, false);
    // Given back only its own: the other holder keeps the lease.
    assert.equal(await journal.leases.holderOf(lease.name, Date.now() + 61_000), 'other-host:77:abcd');
  } finally {
    await journal.close();
  }
});

test('renewals failing for longer than the lease life count as lost, even with no other holder yet', async () => {
  const journal = openSqliteJournal(mkdtempSync(join(tmpdir(), 'lost-lease-')));
  let clock = 1_000_000;
  let journalAway = false;
  const leases: JournalLeases = {
    acquire: async (name, holder, ttlMs, now) => {
      if (journalAway) throw new Error('journal unreachable');
      return journal.leases.acquire(name, holder, ttlMs, now);
    },
    release: (name, holder) => journal.leases.release(name, holder),
    holderOf: (name, now) => journal.leases.holderOf(name, now),
  };
  try {
    const held = await holdLease(leases, 'pass', 'live', { ttlMs: 90, now: () => clock });
    assert.ok(held);
    journalAway = true;
    clock += 60; // within its life: a failed renewal leaves it held
    assert.equal(await held.check(), true);
    clock += 40; // 100 ms since the last renewal, past its 90 ms life
    assert.equal(await held.check(), false);
    journalAway = false;
    assert.equal(await held.check(), false, 'never taken again once lost');
    await held.release();
  } finally {
    await journal.close();
  }
});
