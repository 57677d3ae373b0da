/**
 * @module The chunk writer's claims on the chunks it has in flight: renewed every third of their length so a
 * write slower than a claim (embedder retries, a loaded machine) keeps them, checked and renewed in one journal
 * statement right before each store write so that nothing whose claim passed to another writer reaches the
 * store, and given back when the batch is done.
 *
 * Why the check, then the upsert, is safe against a forget on any replica: the check only renews a claim that is
 * still live and this holder's, and the claim is given back only after the upsert returned and markChunkStored
 * (or requeueStaleWrite) recorded it. So from the check on, the claim is live: a forget's dueDeletions and
 * hasUnclaimedDeletions pass the chunk over (the forget waits for it), and markChunkDeleted, which reads claims
 * under the claim row's lock, leaves the delete due, to run once the claim is given back or runs out (after a
 * kill between upsert and markChunkStored), so it deletes the point the late upsert left. The other order: a
 * markChunkDeleted that found the claim expired dropped it, so the check finds it lost and the chunk is skipped.
 */
import type { PlannedChunk } from '../journal/chunk-queue.js';
import type { JournalChunks } from '../journal/journal.js';
import type { Logger } from '../logging/logger.js';
import type { EmbeddedParts } from '../parts/parts-index.js';

/** The check before a store write (HeldClaims; a test may stand in). */
export interface ClaimCheck {
  /**
   * Those of `chunks` this writer still holds and that still wait for the revision it read (a forget or an edit
   * since moves a chunk on: its write would only be undone), each claim renewed for a whole claim from now: one
   * journal statement.
   */
  stillHeld(chunks: readonly PlannedChunk[]): Promise<ReadonlySet<string>>;
}

export interface HeldClaimsDeps {
  readonly chunks: JournalChunks;
  readonly holder: string;
  /** How long a claim lasts; renewed every third of it. */
  readonly claimMs: number;
  /**
   * How long a batch may keep renewing its claims (default RENEW_LIMIT_CLAIMS claims): past it, the batch is aborted
   * and its claims given back, so a hung write does not keep its chunks from other replicas forever.
   */
  readonly maxRenewMs?: number;
  readonly now: () => number;
  readonly logger: Logger;
}

/**
 * Claims a batch may renew (review s25 finding 2): 5 min at the default 30 s claim, longer than a healthy write
 * with embedder retries takes, and a hung embedder or store no longer keeps its chunks from other replicas.
 */
const RENEW_LIMIT_CLAIMS = 10;

export class HeldClaims implements ClaimCheck {
  readonly #deps: HeldClaimsDeps;
  /**
   * The chunks claimed and not given back. A chunk claimed again while in flight (its claim ran out under a stalled
   * process and this holder took it anew) is one claim in the journal: given back once, by whichever batch ends.
   */
  readonly #held = new Map<string, PlannedChunk>();
  #timer: NodeJS.Timeout | undefined;
  #renewing = false;

  constructor(deps: HeldClaimsDeps) {
    this.#deps = deps;
  }

  /** Claims up to `limit` due chunks no one holds, and keeps their claims renewed until given back. */
  async claimDue(limit: number): Promise<PlannedChunk[]> {
    const { chunks, holder, now, claimMs } = this.#deps;
    return this.#hold(await chunks.claimDueChunks(holder, now(), limit, claimMs));
  }

  /** Claims those of `chunkIds` waiting for a write that no one holds (a forget's rewrite), as claimDue. */
  async claimAmong(chunkIds: readonly string[]): Promise<PlannedChunk[]> {
    const { chunks, holder, now, claimMs } = this.#deps;
    return this.#hold(await chunks.claimChunks(holder, chunkIds, now(), claimMs));
  }

  async stillHeld(written: readonly PlannedChunk[]): Promise<ReadonlySet<string>> {
    if (written.length === 0) return new Set();
    const { chunks, holder, now, claimMs, logger } = this.#deps;
    const held = new Set(await chunks.renewChunkClaims(holder, written, now(), claimMs));
    if (held.size < written.length) {
      logger.info(
        { skipped: written.filter((c) => !held.has(c.chunkId)).map((c) => c.chunkId) },
        'skipped chunks a forget or an edit moved on, or whose claim passed to another writer',
      );
    }
    return held;
  }

  /**
   * Runs `write` on `claimed`, then gives their claims back, written or not; 'renewal-limit' when the write was
   * aborted for outliving maxRenewMs. When both fail, the write's error is
   * the one thrown (it says why the chunks are unwritten) and the give-back's is logged, not lost (review s25
   * finding 4): those claims then run out on their own.
   */
  async whileHeld(
    claimed: readonly PlannedChunk[],
    write: (signal: AbortSignal) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<'done' | 'renewal-limit'> {
    const chunkIds = claimed.map((chunk) => chunk.chunkId);
    const capped = new AbortController();
    const { claimMs, maxRenewMs } = this.#deps;
    const cap = setTimeout(
      () => {
        void this.#giveUp(chunkIds);
        capped.abort();
      },
      maxRenewMs ?? claimMs * RENEW_LIMIT_CLAIMS,
    );
    cap.unref();
    try {
      await write(signal ? AbortSignal.any([signal, capped.signal]) : capped.signal);
    } catch (error) {
      await this.#releaseOrLog(
        chunkIds,
        'could not give back the claims of a failed write: they run out on their own',
      );
      throw error;
    } finally {
      clearTimeout(cap);
    }
    await this.release(chunkIds);
    return capped.signal.aborted ? 'renewal-limit' : 'done';
  }

  /**
   * Stops renewing a batch that outlived its renewal limit and gives its claims back, so other replicas take its
   * chunks over (still due: nothing acknowledged is lost). Its write is aborted; one that ignores the abort
   * stores nothing, since the check before each store write finds the claims gone.
   */
  async #giveUp(chunkIds: readonly string[]): Promise<void> {
    this.#deps.logger.warn(
      { chunks: chunkIds.length },
      'a chunk write outlived its claim renewal limit: aborted, its chunks left to any writer',
    );
    await this.#releaseOrLog(chunkIds, 'could not give back the claims of an aborted write: they run out');
  }

  /** release(), a failure logged rather than thrown: the claims then run out on their own. */
  async #releaseOrLog(chunkIds: readonly string[], message: string): Promise<void> {
    await this.release(chunkIds).catch((error: unknown) => {
      this.#deps.logger.warn({ err: error, chunks: chunkIds.length }, message);
    });
  }

  /** Gives the claims of `chunkIds` back (written or not). */
  async release(chunkIds: readonly string[]): Promise<void> {
    for (const id of chunkIds) this.#held.delete(id);
    if (this.#held.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
    await this.#deps.chunks.releaseChunkClaims(this.#deps.holder, chunkIds);
  }

  #hold(claimed: PlannedChunk[]): PlannedChunk[] {
    for (const chunk of claimed) this.#held.set(chunk.chunkId, chunk);
    if (this.#held.size > 0 && this.#timer === undefined) {
      this.#timer = setInterval(() => void this.#renew(), this.#deps.claimMs / 3);
      // A process that is otherwise done must not stay up for this timer.
      this.#timer.unref();
    }
    return claimed;
  }

  async #renew(): Promise<void> {
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = true;
    const { chunks, holder, now, claimMs, logger } = this.#deps;
    try {
      await chunks.renewChunkClaims(holder, [...this.#held.values()], now(), claimMs);
    } catch (error) {
      // The check before each store write still decides; this only keeps a slow write its claims.
      logger.warn({ err: error }, 'could not renew chunk claims');
    } finally {
      this.#renewing = false;
    }
  }
}

/** An embedded collection group: its chunks, their vectors (same order) and their parts. */
export interface ClaimedGroup<C extends { readonly chunk: PlannedChunk }> {
  readonly group: readonly C[];
  readonly vectors: readonly Float32Array[];
  readonly parts: EmbeddedParts | undefined;
}

/** What of `written` this writer still holds the claims of (checked and renewed now), vectors and parts kept alongside. */
export async function keepClaimed<C extends { readonly chunk: PlannedChunk }>(
  claims: ClaimCheck,
  written: ClaimedGroup<C>,
): Promise<ClaimedGroup<C>> {
  const held = await claims.stillHeld(written.group.map((p) => p.chunk));
  const keep = written.group.map((p) => held.has(p.chunk.chunkId));
  if (keep.every(Boolean)) return written;
  const parts = written.parts;
  return {
    group: written.group.filter((_, i) => keep[i]),
    vectors: written.vectors.filter((_, i) => keep[i]),
    parts: parts && {
      points: parts.points.filter((p) => held.has(p.payload.chunkId)),
      vectors: parts.vectors.filter((_, i) => held.has(parts.points[i]!.payload.chunkId)),
    },
  };
}
