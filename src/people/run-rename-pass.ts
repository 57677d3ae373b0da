/**
 * @module One rename pass of one bot (docs/people.md, "What a link changes"): every request waiting for the bot,
 * merged, becomes one selection of its chunks through the journal's indexes and transactions that queue their
 * rewrite, the last of which deletes the requests. The chunk writer then rewrites each under the same point id and timestamp with
 * the names the links give now. SillyTavern's own points are not chunks of the journal, so they are never touched.
 * A pass that dies before its last transaction commits leaves the requests as they were: the next one does it all.
 * A request younger than the people cache's life is left for a later pass (see RENAME_MIN_AGE_MS).
 */
import { holdLease } from '../journal/hold-lease.js';
import type { Journal } from '../journal/journal.js';
import { PEOPLE_CACHE_MS } from './people-names.js';

const SLICE_SIZE = 2000;

/**
 * How old a request must be for a pass to take it: a writer (of any replica) may hold people read up to
 * PEOPLE_CACHE_MS before the change, and would rewrite a chunk queued sooner with the old name while the
 * request is gone. The margin covers the clocks of replicas (requested_at is the changing replica's) and the
 * time between the stamp and the commit.
 */
export const RENAME_MIN_AGE_MS = PEOPLE_CACHE_MS + 250;

/** What one pass did. */
export interface RenamePassResult {
  /** Accounts whose requests it finished. */
  readonly accounts: number;
  /** Chunks it queued to be rewritten. */
  readonly chunks: number;
  /** Requests it left because they were younger than `minAgeMs` (a later pass takes them). */
  readonly tooYoung: number;
}

export interface RenamePassOptions {
  /** This process, in the pass's lease. */
  readonly holder: string;
  /** Life of the lease (renewed while the pass runs): how long a killed holder blocks the pass. */
  readonly leaseMs: number;
  /**
   * Chunks queued per transaction (default 2000): on SQLite every other journal call waits for one, so a pass over
   * a large bot lets saves and recalls in between. The requests go with the last slice: a pass interrupted between
   * slices is run again whole (the chunks it queued already are only queued again).
   */
  readonly sliceSize?: number;
  /** Requests younger than this are left for a later pass (default RENAME_MIN_AGE_MS). */
  readonly minAgeMs?: number;
  readonly now?: () => number;
}

/** The lease one replica at a time holds while it runs `bot`'s pass. */
export function renameLeaseName(bot: string): string {
  return `rename-pass:${bot}`;
}

/** Runs `bot`'s pass; 'busy' when another holder has its lease (that holder runs it). */
export async function runRenamePass(
  journal: Journal,
  bot: string,
  options: RenamePassOptions,
): Promise<RenamePassResult | 'busy'> {
  const now = options.now ?? Date.now;
  const held = await holdLease(journal.leases, renameLeaseName(bot), options.holder, {
    ttlMs: options.leaseMs,
    now,
  });
  if (held === undefined) return 'busy';
  try {
    const oldest = now() - (options.minAgeMs ?? RENAME_MIN_AGE_MS);
    const waiting = await journal.renames.requests(bot);
    const requests = waiting.filter((request) => request.requestedAt <= oldest);
    const tooYoung = waiting.length - requests.length;
    if (requests.length === 0) return { accounts: 0, chunks: 0, tooYoung };
    const chunkIds = await journal.renames.matchingChunks(
      bot,
      requests.map((request) => request.account),
    );
    const size = options.sliceSize ?? SLICE_SIZE;
    let chunks = 0;
    for (let start = 0; start === 0 || start < chunkIds.length; start += size) {
      // Lost meanwhile (a stall past its life): the new holder runs the pass; queueing twice only costs a rewrite.
      if (!(await held.check())) return 'busy';
      const last = start + size >= chunkIds.length;
      const slice = chunkIds.slice(start, start + size);
      chunks += await journal.renames.queueRewrites(bot, last ? requests : [], slice, now());
    }
    return { accounts: requests.length, chunks, tooYoung };
  } finally {
    // A journal gone (the process closing) keeps the lease until it runs out; that is what expiry is for.
    await held.release().catch(() => undefined);
  }
}
