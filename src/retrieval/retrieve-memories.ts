/**
 * @module `POST /retrieve`'s work, with st-qdrant-memory's semantics: search `limit * 2` above the score
 * threshold, leave out hits holding excluded message ids and near-duplicates, keep `limit`, format the block.
 */
import type { RetrieveHit, RetrieveRequest, RetrieveResponse } from '../api/retrieve-request.js';
import type { BotConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import type { CollectionGuard } from '../ingest/collection-guard.js';
import type { PointStore } from '../store/point-store.js';
import { formatRecall } from './format-recall.js';
import { buildScopeFilter, narrowestScope } from './recall-scope.js';
import { type RecallHit, toRecallHit } from './recall-hit.js';
import { selectHits } from './select-hits.js';

export interface RetrieveDeps {
  readonly store: PointStore;
  /** Should be cached: clients ask the same query again (retries, concurrent interfaces). */
  readonly embedder: Embedder;
  readonly guard: CollectionGuard;
}

const EMPTY: RetrieveResponse = { hits: [], formatted: '' };

/** Recalls the best chunks of `bot`'s collection for the request's query. */
export async function retrieveMemories(
  deps: RetrieveDeps,
  bot: BotConfig,
  request: RetrieveRequest,
  signal?: AbortSignal,
): Promise<RetrieveResponse> {
  const limit = request.limit ?? bot.retrieve.limit;
  const scoreThreshold = request.score_threshold ?? bot.retrieve.scoreThreshold;
  const [vector] = await deps.embedder.embed([request.query_text], signal ? { signal } : {});
  if (vector === undefined) return EMPTY;
  // Nothing was ever written: recall is empty, not an error (the collection is created on first write).
  if (!(await deps.guard.checkReadable(bot.collection, deps.embedder.model, vector.length))) return EMPTY;
  const filter = buildScopeFilter(
    narrowestScope(bot.retrieve.scope, request.scope),
    {
      ...(request.guild_id === undefined ? {} : { guildId: request.guild_id }),
      ...(request.channel_id === undefined ? {} : { channelId: request.channel_id }),
      ...(request.is_dm === undefined ? {} : { isDm: request.is_dm }),
    },
    request.sources,
  );
  const points = await deps.store.searchPoints(bot.collection, {
    vector: Array.from(vector),
    limit: limit * 2,
    scoreThreshold,
    ...(filter ? { filter } : {}),
  });
  const hits = selectHits(points.map(toRecallHit), {
    limit,
    ...(request.exclude_message_ids ? { excludeMessageIds: request.exclude_message_ids } : {}),
  });
  return { hits: hits.map(toRetrieveHit), formatted: formatRecall(hits) };
}

/** The wire shape: RecallHit without the formatting-only `legacySpeaker`. */
function toRetrieveHit(hit: RecallHit): RetrieveHit {
  const { legacySpeaker: _legacy, ...wire } = hit;
  return wire;
}
