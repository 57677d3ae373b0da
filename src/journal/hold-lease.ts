/**
 * @module Holding a named lease for as long as a pass runs (a reembed, a parts reindex): taken once, renewed
 * while the pass works, given back at the end. A holder that dies stops renewing, so another takes the lease
 * once it expires.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../errors/memory-pool-error.js';
import type { JournalLeases } from './journal.js';

/** Default life of a pass's lease: a killed holder blocks the next pass this long at most. */
const PASS_LEASE_MS = 60_000;

/** One process's name in leases and chunk claims: host, pid and a random tail (a restarted pid is another holder). */
export function createHolderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export interface HeldLease {
  /** False once a renewal found it taken by another holder (this pass stalled past its life). */
  readonly held: boolean;
  /** Stops renewing and gives it back. */
  release(): Promise<void>;
}

export interface HoldLeaseOptions {
  /** Default 60 s; renewed every third of it. */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** Takes `name` for `holder` and keeps renewing it; undefined when another holder has it now. */
export async function holdLease(
  leases: JournalLeases,
  name: string,
  holder: string,
  options: HoldLeaseOptions = {},
): Promise<HeldLease | undefined> {
  const ttlMs = options.ttlMs ?? PASS_LEASE_MS;
  const now = options.now ?? Date.now;
  if (!(await leases.acquire(name, holder, ttlMs, now()))) return undefined;
  let held = true;
  // A third of its life, so one renewal lost to a slow or failed call still leaves it held.
  const timer = setInterval(() => {
    leases.acquire(name, holder, ttlMs, now()).then(
      (renewed) => {
        if (!renewed) held = false;
      },
      () => {
        // The journal did not answer: the next renewal tries again before the lease runs out.
      },
    );
  }, ttlMs / 3);
  timer.unref();
  return {
    get held() {
      return held;
    },
    async release() {
      clearInterval(timer);
      await leases.release(name, holder);
    },
  };
}

/**
 * Runs `work` under the lease `name` (a pass one process at a time may run: a reembed, a reindex), given
 * back when it ends. Another holder's live lease is a 409 naming `what` and when to try again.
 */
export async function runUnderLease<T>(
  leases: JournalLeases,
  lease: { readonly name: string; readonly what: string; readonly field: string },
  work: () => Promise<T>,
): Promise<T> {
  const held = await holdLease(leases, lease.name, createHolderId());
  if (held === undefined) {
    const holder = (await leases.holderOf(lease.name, Date.now())) ?? 'a process that just finished';
    throw new ValidationError(
      lease.field,
      `another ${lease.what} is running (${holder}). Wait for it to finish; if that process died, its lease runs out within ${PASS_LEASE_MS / 1000} s.`,
      'validation_failed',
      409,
    );
  }
  try {
    return await work();
  } finally {
    await held.release();
  }
}
