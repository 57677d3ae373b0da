/**
 * @module Holding a named lease for as long as a pass runs (a reembed, a parts reindex): taken once, renewed
 * while the pass works, given back at the end. A holder that dies stops renewing, so another takes the lease
 * once it expires.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
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
