/**
 * @module The background half of /save: cuts each conversation's pending messages into chunks, embeds them
 * and upserts them, retrying with backoff until stored. Work is read from the journal every time, so a
 * restart, or Qdrant or the embedder being down, only delays it.
 */
import { formatChunk } from '../chunking/chunk-format.js';
import { planChunks } from '../chunking/chunk-planner.js';
import { deriveChunkPointId } from '../chunking/chunk-point-id.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { MessageJournal, PlannedChunk } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { PointStore } from '../store/point-store.js';
import type { CollectionGuard } from './collection-guard.js';
import { computeRetryDelay } from './retry-delay.js';

export interface ChunkWriterDeps {
  readonly config: MemoryPoolConfig;
  readonly journal: MessageJournal;
  readonly store: PointStore;
  readonly embedder: Embedder;
  readonly guard: CollectionGuard;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** Chunks embedded and upserted together (one embedder call, one upsert per collection). */
const WRITE_BATCH = 32;
/** Longest sleep between passes when nothing is scheduled sooner. */
const MAX_IDLE_SLEEP_MS = 5_000;

export class ChunkWriter {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Passes run one after another, so a forget's pass never interleaves with a write of the old text. */
  private chain: Promise<unknown> = Promise.resolve();
  private rerun = false;
  private stopped = true;
  private readonly now: () => number;

  constructor(private readonly deps: ChunkWriterDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Starts the background loop. */
  start(): void {
    this.stopped = false;
    // Delays chosen before a restart may be hours long for errors the operator has since fixed.
    this.deps.journal.resetRetryDelays();
    this.wake();
  }

  /** Asks for a pass soon (after a /save); passes never overlap. */
  wake(): void {
    if (this.stopped) return;
    this.schedule(0);
  }

  /** Stops the loop and waits for the pass in progress; pending work stays in the journal for next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One pass, after any pass in progress: plan ready chunks, delete points a forget asked to delete, then
   * write every due chunk. `flush` also writes non-idle remainders. Resolves with when the next pass is due.
   */
  runOnce(options: { flush?: boolean } = {}): Promise<number | undefined> {
    const pass = this.chain.then(() => this.pass(options.flush ?? false));
    this.chain = pass.catch(() => undefined);
    return pass;
  }

  private async pass(flush: boolean): Promise<number | undefined> {
    const nextFlush = this.planReadyChunks(flush);
    for (;;) {
      const deletions = this.deps.journal.dueDeletions(this.now(), WRITE_BATCH);
      if (deletions.length === 0) break;
      await this.deleteChunks(deletions);
    }
    for (;;) {
      const due = this.deps.journal.dueChunks(this.now(), WRITE_BATCH);
      if (due.length === 0) break;
      await this.writeChunks(due);
    }
    const nextRetry = this.deps.journal.nextChunkDueAt();
    return [nextFlush, nextRetry].filter((t): t is number => t !== undefined).sort((a, b) => a - b)[0];
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), Math.max(0, delayMs));
  }

  private async loop(): Promise<void> {
    if (this.running) {
      this.rerun = true;
      return;
    }
    let nextAt: number | undefined;
    this.running = this.runOnce()
      .then((next) => {
        nextAt = next;
      })
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'chunk writer pass failed'));
    await this.running;
    this.running = undefined;
    if (this.stopped) return;
    if (this.rerun) {
      this.rerun = false;
      this.schedule(0);
      return;
    }
    const sleep = nextAt === undefined ? MAX_IDLE_SLEEP_MS : nextAt - this.now();
    this.schedule(Math.min(Math.max(sleep, 10), MAX_IDLE_SLEEP_MS));
  }

  /** Plans chunks for every conversation with pending messages; returns when the earliest remainder goes idle. */
  private planReadyChunks(flush: boolean): number | undefined {
    const { journal, config } = this.deps;
    let earliest: number | undefined;
    for (const conversation of journal.pendingConversations()) {
      const bot = config.bots[conversation.bot];
      if (bot === undefined) continue; // a bot removed from the config: its messages wait, untouched
      const plan = planChunks({
        pending: journal.pendingMessages(conversation.bot, conversation.conversation),
        sizes: bot.chunk,
        speakers: bot,
        now: this.now(),
        lastArrivalMs: conversation.lastArrivalMs,
        flush,
      });
      for (const messages of plan.ready) {
        const messageIds = messages.map((m) => m.messageId);
        const chunkId = deriveChunkPointId(bot.collection, messageIds);
        journal.planChunk({ chunkId, bot: bot.name, collection: bot.collection, messageIds }, this.now());
      }
      if (plan.flushAt !== undefined && (earliest === undefined || plan.flushAt < earliest))
        earliest = plan.flushAt;
    }
    return earliest;
  }

  private async writeChunks(chunks: readonly PlannedChunk[]): Promise<void> {
    const { journal, config, embedder, store, guard, metrics } = this.deps;
    const points = chunks.flatMap((chunk) => {
      const bot = config.bots[chunk.bot];
      const messages = journal.chunkMessages(chunk.chunkId);
      if (bot === undefined || messages.length === 0) {
        this.fail([chunk], new Error(`bot ${chunk.bot} is not configured`), true);
        return [];
      }
      return [{ chunk, payload: formatChunk(messages, bot) }];
    });
    if (points.length === 0) return;
    let vectors: Float32Array[];
    const started = performance.now();
    try {
      vectors = await embedder.embed(points.map((p) => p.payload.text));
      metrics.embedCalls.inc({ purpose: 'chunk', outcome: 'ok' });
    } catch (error) {
      metrics.embedCalls.inc({ purpose: 'chunk', outcome: 'error' });
      this.fail(
        points.map((p) => p.chunk),
        error,
      );
      return;
    } finally {
      metrics.embedDuration.observe({ purpose: 'chunk' }, (performance.now() - started) / 1000);
    }
    const byCollection = new Map<string, number[]>();
    points.forEach((p, i) => {
      const list = byCollection.get(p.chunk.collection) ?? [];
      list.push(i);
      byCollection.set(p.chunk.collection, list);
    });
    for (const [collection, indexes] of byCollection) {
      const group = indexes.map((i) => points[i]!);
      try {
        const dimensions = vectors[indexes[0]!]!.length;
        await guard.ensureCollection(collection, embedder.model, dimensions);
        await store.upsertPoints(
          collection,
          indexes.map((i) => ({
            id: points[i]!.chunk.chunkId,
            vector: Array.from(vectors[i]!),
            payload: { ...points[i]!.payload },
          })),
        );
        const storedAt = this.now();
        for (const p of group) {
          journal.markChunkStored(p.chunk.chunkId, p.chunk.revision, storedAt);
          metrics.chunksStored.inc({ bot: p.chunk.bot });
        }
      } catch (error) {
        this.fail(
          group.map((p) => p.chunk),
          error,
        );
      }
    }
  }

  /** Removes points a forget asked to remove; their chunks are then rewritten without the forgotten messages. */
  private async deleteChunks(chunks: readonly PlannedChunk[]): Promise<void> {
    const byCollection = new Map<string, PlannedChunk[]>();
    for (const chunk of chunks)
      byCollection.set(chunk.collection, [...(byCollection.get(chunk.collection) ?? []), chunk]);
    for (const [collection, group] of byCollection) {
      try {
        await this.deps.store.deletePoints(collection, { ids: group.map((c) => c.chunkId) });
        for (const chunk of group) this.deps.journal.markChunkDeleted(chunk.chunkId, chunk.revision);
      } catch (error) {
        this.fail(group, error);
      }
    }
  }

  /** Records a failed attempt and when to try again; nothing is dropped. */
  private fail(chunks: readonly PlannedChunk[], error: unknown, permanent = false): void {
    const code = isMemoryPoolError(error) ? error.code : 'internal';
    const retryable = !permanent && (!isMemoryPoolError(error) || error.retryable);
    const message = error instanceof Error ? error.message : String(error);
    for (const chunk of chunks) {
      const delay = computeRetryDelay(chunk.attempts, { retryable });
      this.deps.journal.markChunkFailed(chunk.chunkId, message, this.now() + delay);
      this.deps.metrics.chunkFailures.inc({ bot: chunk.bot, code });
    }
    this.deps.logger.warn(
      { code, chunks: chunks.length, attempts: chunks[0]?.attempts, err: message },
      'could not store chunks; will retry',
    );
  }
}
