/**
 * @module The background half of /save: cuts each conversation's pending messages into chunks, embeds them
 * and upserts them, retrying with backoff until stored. Work is read from the journal every time, so a
 * restart, or Qdrant or the embedder being down, only delays it.
 */
import { formatChunk } from '../chunking/chunk-format.js';
import type { ChunkPayload } from '../chunking/memory-message.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { ConfigError, isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { MessageJournal, PlannedChunk } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { PointStore } from '../store/point-store.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { PartsIndex } from '../parts/parts-index.js';
import { type PlanningResult, planReadyChunks } from './plan-ready-chunks.js';
import { computeRetryDelay } from './retry-delay.js';

export interface ChunkWriterDeps {
  /** The configured bots: the only part of the config the writer reads. */
  readonly bots: MemoryPoolConfig['bots'];
  readonly journal: MessageJournal;
  readonly store: PointStore;
  readonly embedder: Embedder;
  readonly guard: CollectionGuard;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  readonly now?: () => number;
  /** The fine-grained parts index: written before each chunk point, deleted before it. */
  readonly parts?: PartsIndex;
}

/** What a task run by `runExclusive` may do while no write can interleave. */
export interface ExclusiveOps {
  /** Deletes every point waiting for a delete (after a forget) that is due now. */
  deleteDueChunks(): Promise<void>;
  /** Writes these chunks now, if they wait for a write (a forget's rewrites). */
  writeChunks(chunkIds: readonly string[]): Promise<void>;
}

/** Chunks embedded and upserted together (one embedder call, one upsert per collection). */
const WRITE_BATCH = 32;
/**
 * Chunks planned per planning unit (one transaction): ~0.1 ms each on a busy 2-core machine, so a unit
 * holds the event loop for a few milliseconds; a burst's backlog of hundreds took 274 ms in one block.
 */
const PLAN_BATCH = 64;
/** How long a forget waits for the rewrite of what its chunks keep; past it, the background writer finishes. */
const EXCLUSIVE_WRITE_DEADLINE_MS = 5_000;
/** Longest sleep between passes when nothing is scheduled sooner. */
const MAX_IDLE_SLEEP_MS = 5_000;

export class ChunkWriter {
  private timer: NodeJS.Timeout | undefined;
  /**
   * Every unit of work (planning, one batch of deletes or writes, an exclusive task) runs on this chain,
   * one after another: a forget never interleaves with a write of the old text, and it waits for at most
   * one batch, not a whole backlog.
   */
  private chain: Promise<unknown> = Promise.resolve();
  private looping: Promise<void> | undefined;
  private rerun = false;
  private stopped = true;
  /** Bumped by stop(), so a pass in progress ends after its current step. */
  private generation = 0;
  /** Aborts the background write in progress, so a forget need not wait for a slow embedder. */
  private backgroundWrite: AbortController | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: ChunkWriterDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Starts the background loop. */
  start(): void {
    this.stopped = false;
    // Delays chosen before a restart may be hours long for errors the operator has since fixed.
    this.deps.journal.chunks.resetRetryDelays();
    this.wake();
  }

  /** Asks for a pass soon (after a /save); passes never overlap. */
  wake(): void {
    if (this.stopped) return;
    this.schedule(0);
  }

  /** Stops the loop and waits for the work in progress; pending work stays in the journal for next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.generation += 1;
    clearTimeout(this.timer);
    this.backgroundWrite?.abort();
    await this.looping;
    await this.chain;
  }

  /**
   * Runs `task` alone: after the unit of work in progress, before the next one. A background write in
   * progress is aborted (its chunks stay due and are written again right after).
   */
  runExclusive<T>(task: (ops: ExclusiveOps) => Promise<T>): Promise<T> {
    this.backgroundWrite?.abort();
    return this.enqueue(() =>
      task({
        deleteDueChunks: () => this.deleteDueChunks(),
        writeChunks: async (chunkIds) => {
          const chunks = this.deps.journal.chunks.plannedChunks(chunkIds);
          const signal = AbortSignal.timeout(EXCLUSIVE_WRITE_DEADLINE_MS);
          for (let start = 0; start < chunks.length && !signal.aborted; start += WRITE_BATCH) {
            await this.writeChunks(chunks.slice(start, start + WRITE_BATCH), signal);
          }
        },
      }),
    );
  }

  /**
   * One pass: plan ready chunks, delete points a forget asked to delete, then write every due chunk, one
   * batch at a time. `flush` also writes non-idle remainders. Resolves with when the next pass is due.
   */
  async runOnce(options: { flush?: boolean } = {}): Promise<number | undefined> {
    const generation = this.generation;
    let planning: PlanningResult;
    do {
      planning = await this.enqueue(async () =>
        planReadyChunks(this.deps.journal, this.deps.bots, this.now(), options.flush ?? false, PLAN_BATCH),
      );
      // The chain is promises only: without a macrotask between units, /save would still wait for them all.
      if (planning.more) await new Promise((resolve) => setImmediate(resolve));
    } while (planning.more && generation === this.generation);
    const nextFlush = planning.flushAt;
    while (generation === this.generation && (await this.enqueue(() => this.runStep()))) {
      // Each step is one batch; other work (a forget) may run between steps.
    }
    const nextRetry = this.deps.journal.chunks.nextChunkDueAt();
    return [nextFlush, nextRetry].filter((t): t is number => t !== undefined).sort((a, b) => a - b)[0];
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One batch of deletes, else one batch of writes; false when nothing was due. */
  private async runStep(): Promise<boolean> {
    const deletions = this.deps.journal.chunks.dueDeletions(this.now(), WRITE_BATCH);
    if (deletions.length > 0) {
      await this.deleteChunks(deletions);
      return true;
    }
    const due = this.deps.journal.chunks.dueChunks(this.now(), WRITE_BATCH);
    if (due.length === 0) return false;
    const controller = new AbortController();
    this.backgroundWrite = controller;
    try {
      await this.writeChunks(due, controller.signal);
    } finally {
      this.backgroundWrite = undefined;
    }
    // An aborted write gave way to a forget or a stop: its chunks are still due, and the next step takes them.
    return true;
  }

  private async deleteDueChunks(): Promise<void> {
    for (;;) {
      const deletions = this.deps.journal.chunks.dueDeletions(this.now(), WRITE_BATCH);
      if (deletions.length === 0) return;
      await this.deleteChunks(deletions);
    }
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), Math.max(0, delayMs));
  }

  private async loop(): Promise<void> {
    if (this.looping) {
      this.rerun = true;
      return;
    }
    this.looping = this.runPasses();
    await this.looping;
    this.looping = undefined;
  }

  private async runPasses(): Promise<void> {
    let nextAt: number | undefined;
    try {
      do {
        this.rerun = false;
        nextAt = await this.runOnce();
      } while (this.rerun && !this.stopped);
    } catch (error) {
      this.deps.logger.error({ err: error }, 'chunk writer pass failed');
    }
    if (this.stopped) return;
    const sleep = nextAt === undefined ? MAX_IDLE_SLEEP_MS : nextAt - this.now();
    this.schedule(Math.min(Math.max(sleep, 10), MAX_IDLE_SLEEP_MS));
  }

  /** Builds one chunk's payload; a chunk that cannot be built fails alone, never the batch. */
  private buildPayload(chunk: PlannedChunk): ChunkPayload | undefined {
    const bot = this.deps.bots[chunk.bot];
    try {
      if (bot === undefined) {
        throw new ConfigError(
          `bots.${chunk.bot}`,
          'is no longer configured; add it back to write its pending chunks',
        );
      }
      return formatChunk(this.deps.journal.chunks.chunkMessages(chunk.chunkId), bot);
    } catch (error) {
      this.fail([chunk], error, true);
      return undefined;
    }
  }

  private async writeChunks(chunks: readonly PlannedChunk[], signal?: AbortSignal): Promise<void> {
    const { journal, embedder, store, guard, metrics } = this.deps;
    const points = chunks.flatMap((chunk) => {
      const payload = this.buildPayload(chunk);
      return payload === undefined ? [] : [{ chunk, payload }];
    });
    if (points.length === 0) return;
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(
        points.map((p) => p.payload.text),
        signal ? { signal } : {},
      );
    } catch (error) {
      if (signal?.aborted) return; // gave way to a forget, a stop or a deadline: still due, not a failure
      if (points.length > 1 && isMemoryPoolError(error) && !error.retryable) {
        // The provider refused the input (too long, bad characters): find the chunk, let the others through.
        for (const p of points) await this.writeChunks([p.chunk], signal);
        return;
      }
      this.fail(
        points.map((p) => p.chunk),
        error,
      );
      return;
    }
    const byCollection = groupBy(
      points.map((p, i) => ({ ...p, vector: vectors[i]! })),
      (p) => p.chunk.collection,
    );
    for (const [collection, group] of byCollection) {
      try {
        await guard.ensureCollection(collection, embedder.model, group[0]!.vector.length);
        const partsWritten = await this.deps.parts?.writeParts(
          collection,
          group.map((p) => ({ chunkId: p.chunk.chunkId, bot: p.chunk.bot, payload: p.payload })),
          signal,
        );
        if (partsWritten === false) return; // aborted like the embedding above: still due, not a failure
        await store.upsertPoints(
          collection,
          group.map((p) => ({
            id: p.chunk.chunkId,
            vector: Array.from(p.vector),
            payload: { ...p.payload },
          })),
        );
        const storedAt = this.now();
        // One commit for the batch, not one fsync each (the revision check is per chunk, as before).
        journal.transaction(() => {
          for (const p of group) journal.chunks.markChunkStored(p.chunk.chunkId, p.chunk.revision, storedAt);
        });
        for (const p of group) metrics.chunksStored.inc({ bot: p.chunk.bot });
      } catch (error) {
        // Deleted behind our back (SillyTavern, an admin): check again, and create it, on the next attempt.
        if (isMemoryPoolError(error) && error.code === 'collection_missing') guard.invalidate(collection);
        this.fail(
          group.map((p) => p.chunk),
          error,
        );
      }
    }
  }

  /** Removes points a forget asked to remove; their chunks are then rewritten without the forgotten messages. */
  private async deleteChunks(chunks: readonly PlannedChunk[]): Promise<void> {
    for (const [collection, group] of groupBy(chunks, (c) => c.collection)) {
      try {
        await this.deps.parts?.deleteParts(
          collection,
          group.map((c) => c.chunkId),
        );
        await this.deps.store.deletePoints(collection, { ids: group.map((c) => c.chunkId) });
        this.deps.journal.transaction(() => {
          for (const chunk of group) this.deps.journal.chunks.markChunkDeleted(chunk.chunkId, chunk.revision);
        });
      } catch (error) {
        this.fail(group, error);
      }
    }
  }

  /**
   * Records a failed attempt and when to try again; nothing is dropped. A chunk changed meanwhile (edit,
   * forget) keeps its new, immediate due time: the failure was about its old content.
   */
  private fail(chunks: readonly PlannedChunk[], error: unknown, permanent = false): void {
    const code = isMemoryPoolError(error) ? error.code : 'internal';
    const retryable = !permanent && (!isMemoryPoolError(error) || error.retryable);
    const message = error instanceof Error ? error.message : String(error);
    this.deps.journal.transaction(() => {
      for (const chunk of chunks) {
        const delay = computeRetryDelay(chunk.attempts, { retryable });
        this.deps.journal.chunks.markChunkFailed(chunk.chunkId, chunk.revision, message, this.now() + delay);
      }
    });
    for (const chunk of chunks) this.deps.metrics.chunkFailures.inc({ bot: chunk.bot, code });
    this.deps.logger.warn(
      { code, chunks: chunks.length, attempts: chunks[0]?.attempts, err: message },
      'could not store chunks; will retry',
    );
  }
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
