/**
 * @module `POST /retrieve`'s work, with st-qdrant-memory's semantics: search `limit * 2` above the score
 * threshold (within the bot's privacy scope), leave out hits holding excluded or forgotten message ids and
 * near-duplicates, keep `limit`, format the block. Bounded by a deadline: clients give up after 3.5 s.
 */
import type {
  RetrieveExplanation,
  RetrieveHit,
  RetrieveRequest,
  RetrieveResponse,
} from '../wire/retrieve-request.js';
import type { BotConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { isMemoryPoolError, MemoryPoolError } from '../errors/memory-pool-error.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { PartsGuard } from '../parts/parts-guard.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { PointStore, ScoredStorePoint } from '../store/point-store.js';
import { formatRecall } from './format-recall.js';
import type { FusedChunk } from './fuse-chunk-ranks.js';
import { type RecallHit, toRecallHit } from './recall-hit.js';
import { buildRecallFilter } from './recall-scope.js';
import { searchHybrid } from './search-hybrid.js';
import { selectHits } from './select-hits.js';

export interface RetrieveDeps {
  readonly store: PointStore & HybridPointStore;
  /** Decides whether a collection's parts index can be used (else recall is chunk-only, as before parts). */
  readonly partsGuard?: PartsGuard;
  /** Should be cached: clients ask the same query again (retries, concurrent interfaces). */
  readonly embedder: Embedder;
  readonly guard: CollectionGuard;
  /** Which of these message ids were forgotten: a hit holding one is never returned, even mid-forget. */
  readonly forgottenIds: (bot: string, messageIds: readonly string[]) => ReadonlySet<string>;
  /** Whole-request deadline in ms (default 3000, inside the clients' 3.5 s). */
  readonly deadlineMs?: number;
}

const EMPTY: RetrieveResponse = { hits: [], formatted: '' };
const DEFAULT_DEADLINE_MS = 3_000;

/** Recalls the best chunks of `bot`'s collection for the request's query. */
export async function retrieveMemories(
  deps: RetrieveDeps,
  bot: BotConfig,
  request: RetrieveRequest,
  signal?: AbortSignal,
): Promise<RetrieveResponse> {
  const deadlineMs = deps.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const deadline = AbortSignal.timeout(deadlineMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const timeoutError = () =>
    new MemoryPoolError(
      'recall_timeout',
      `recall did not finish within ${deadlineMs} ms; retry, and check GET /ready`,
      {
        status: 503,
        retryable: true,
      },
    );
  // The store client cannot be aborted, so the deadline also races the whole recall.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), deadlineMs);
  });
  try {
    return await Promise.race([recall(deps, bot, request, combined), timedOut]);
  } catch (error) {
    // The embedder saw the deadline's abort first: report the deadline, not the abort.
    if (deadline.aborted && !isMemoryPoolError(error)) throw timeoutError();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function recall(
  deps: RetrieveDeps,
  bot: BotConfig,
  request: RetrieveRequest,
  signal: AbortSignal,
): Promise<RetrieveResponse> {
  const limit = request.limit ?? bot.retrieve.limit;
  const [vector] = await deps.embedder.embed([request.query_text], { signal });
  if (vector === undefined) return EMPTY;
  // Nothing was ever written: recall is empty, not an error (the collection is created on first write).
  if (!(await deps.guard.checkReadable(bot.collection, deps.embedder.model, vector.length))) return EMPTY;
  const filter = buildRecallFilter(
    bot.retrieve.scope,
    {
      ...(request.guild_id === undefined ? {} : { guildId: request.guild_id }),
      ...(request.channel_id === undefined ? {} : { channelId: request.channel_id }),
      ...(request.is_dm === undefined ? {} : { isDm: request.is_dm }),
    },
    {
      ...(request.scope ? { scope: request.scope } : {}),
      ...(request.sources ? { sources: request.sources } : {}),
    },
  );
  const scoreThreshold = request.score_threshold ?? bot.retrieve.scoreThreshold;
  let points: ScoredStorePoint[];
  let fusions: ReadonlyMap<string | number, FusedChunk> | undefined;
  try {
    const hybrid =
      deps.partsGuard !== undefined &&
      (await deps.partsGuard.checkPartsUsable(bot.collection, deps.embedder.model, vector.length));
    if (hybrid) {
      const found = await searchHybrid(deps.store, {
        collection: bot.collection,
        vector: Array.from(vector),
        queryText: request.query_text,
        candidates: limit * 2,
        scoreThreshold,
        ...(filter ? { filter } : {}),
      });
      points = found.map((hit) => hit.point);
      fusions = new Map(found.map((hit) => [hit.point.id, hit.fusion]));
    } else {
      points = await deps.store.searchPoints(bot.collection, {
        vector: Array.from(vector),
        limit: limit * 2,
        scoreThreshold,
        ...(filter ? { filter } : {}),
        // A collection in st-qdrant-memory's hybrid fork layout also ranks by the query's words.
        queryText: request.query_text,
      });
    }
  } catch (error) {
    if (!isMemoryPoolError(error) || error.code !== 'collection_missing') throw error;
    // Deleted by another client: nothing to recall until rewritten (the parts are checked again too).
    deps.guard.invalidate(bot.collection);
    deps.partsGuard?.invalidate(bot.collection);
    return EMPTY;
  }
  const candidates = points.map(toRecallHit);
  const forgotten = deps.forgottenIds(
    bot.name,
    candidates.flatMap((hit) => hit.messageIds.split(',').map((id) => id.trim())),
  );
  const excluded = [...(request.exclude_message_ids ?? []), ...forgotten];
  const hits = selectHits(candidates, { limit, excludeMessageIds: excluded });
  const wire = hits.map(toRetrieveHit);
  return {
    hits: request.explain
      ? wire.map((hit) => ({
          ...hit,
          explain: explainHit(hit, fusions, points.findIndex((p) => p.id === hit.id) + 1),
        }))
      : wire,
    formatted: formatRecall(hits),
  };
}

/** The wire shape: RecallHit without the formatting-only `legacySpeaker`. */
function toRetrieveHit(hit: RecallHit): RetrieveHit {
  const { legacySpeaker: _legacy, ...wire } = hit;
  return wire;
}

/** What `explain: true` says about one hit: the signals and parts that ranked it (chunk-only: its cosine). */
function explainHit(
  hit: RetrieveHit,
  fusions: ReadonlyMap<string | number, FusedChunk> | undefined,
  searchRank: number,
): RetrieveExplanation {
  const fusion = fusions?.get(hit.id);
  if (fusion === undefined) {
    return {
      mode: 'chunk-only',
      fused: 0,
      signals: { chunk_dense: { rank: searchRank, score: hit.score } },
      parts: [],
    };
  }
  const signal = (name: keyof FusedChunk['signals']) => {
    const found = fusion.signals[name];
    if (found === undefined) return {};
    return {
      [name]: {
        rank: found.rank,
        score: found.score,
        ...(found.partId === undefined ? {} : { part_id: found.partId }),
      },
    };
  };
  return {
    mode: 'hybrid',
    fused: fusion.fused,
    signals: { ...signal('chunk_dense'), ...signal('part_dense'), ...signal('part_lexical') },
    parts: fusion.parts.map((part) => ({
      id: part.id,
      message_ids: part.messageIds,
      ...(part.ranks.part_dense ? { part_dense: part.ranks.part_dense } : {}),
      ...(part.ranks.part_lexical ? { part_lexical: part.ranks.part_lexical } : {}),
    })),
  };
}
