/**
 * @module Holding a named lease for as long as a pass runs (a reembed, a parts reindex): taken once, renewed
 * while the pass works, given back at the end. A holder that dies stops renewing, so another takes the lease
 * once it expires.
 */
import { ValidationError } from '../errors/memory-pool-error.js';
import { createHolderId } from '../runtime/holder-id.js';
import type { JournalLeases } from './journal.js';

/** Default life of a pass's lease: a killed holder blocks the next pass this long at most. */
const PASS_LEASE_MS = 60_000;

export interface HeldLease {
  /** False once this holder lost it: a renewal found it taken, or renewals failed for longer than its life. */
  readonly held: boolean;
  /** Renews it now: false when lost (see held). Called before each irreversible step of a pass. */
  check(): Promise<boolean>;
  /** Stops renewing and gives it back. */
  release(): Promise<void>;
}

export interface HoldLeaseOptions {
  /** Default 60 s; renewed every third of it. */
  readonly ttlMs?: number;
  /** The wall clock the journal's leases are written in (shared with other processes). */
  readonly now?: () => number;
  /**
   * The clock this holder times its own expiry with (default performance.now): monotonic, so a wall clock
   * stepped back (NTP, a VM resumed) cannot keep a lease held here past its life while renewals fail.
   */
  readonly elapsed?: () => number;
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
  const elapsed = options.elapsed ?? (() => performance.now());
  if (!(await leases.acquire(name, holder, ttlMs, now()))) return undefined;
  let held = true;
  let renewedAt = elapsed();
  // Never renewed once lost: the other holder may have acted on it, even if it has given it back since.
  const renew = async (): Promise<void> => {
    if (!held) return;
    const at = elapsed();
    try {
      if (await leases.acquire(name, holder, ttlMs, now())) renewedAt = at;
      else held = false;
    } catch {
      // The journal did not answer: still ours until its life from the last renewal runs out, then anyone's.
      if (elapsed() - renewedAt >= ttlMs) held = false;
    }
  };
  // A third of its life, so one renewal lost to a slow or failed call still leaves it held.
  const timer = setInterval(() => void renew(), ttlMs / 3);
  timer.unref();
  return {
    get held() {
      return held;
    },
    async check() {
      await renew();
      return held;
    },
    async release() {
      clearInterval(timer);
      // Lost: the row is another holder's now (release deletes only this holder's, so it is safe either way).
      await leases.release(name, holder);
    },
  };
}

/** What a pass under a lease asks before each irreversible step (a switch, a collection delete). */
export interface LeaseGuard {
  /** Throws a 409 naming the new holder when this pass lost its lease: nothing irreversible runs after that. */
  ensureHeld(step: string): Promise<void>;
}

/** The guard of a pass that holds no lease (a dry run writes nothing). */
export const UNLEASED: LeaseGuard = { ensureHeld: async () => undefined };

/**
 * Runs `work` under the lease `name` (a pass one process at a time may run: a reembed, a reindex), given
 * back when it ends. Another holder's live lease is a 409 naming `what` and when to try again; losing it
 * mid-pass (see HeldLease.held) is a 409 at the next `guard.ensureHeld`.
 */
export async function runUnderLease<T>(
  leases: JournalLeases,
  lease: { readonly name: string; readonly what: string; readonly field: string },
  work: (guard: LeaseGuard) => Promise<T>,
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
  const guard: LeaseGuard = {
    async ensureHeld(step) {
      if (await held.check()) return;
      const holder =
        (await leases.holderOf(lease.name, Date.now()).catch(() => undefined)) ?? 'another process';
      throw new ValidationError(
        lease.field,
        `this ${lease.what} lost its lease ${lease.name} (its renewals failed or stalled past ${PASS_LEASE_MS / 1000} s) and ${holder} holds it now: stopped before ${step}, and nothing irreversible was done after the loss. Let the other one finish, then run the command again if it is still needed.`,
        'validation_failed',
        409,
      );
    },
  };
  try {
    return await work(guard);
  } finally {
    await held.release();
  }
}
