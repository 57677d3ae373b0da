/**
 * @module Hybrid recall's hits: passages planned from the fused ranking, each read from its chunk point
 * (chunks gone from the store or holding a forgotten message are left out, and the plan is made again
 * without them), trimmed to the passage's messages, explained. A hit's `score` is its passage's dense cosine
 * (the part's, or a whole chunk's), as st-qdrant-memory shows: the same scale for every query, where the fused
 * score (under `explain`) is normalized per query and always 1 for the best hit.
 */
import { splitMessageIds } from '../chunking/held-message-ids.js';
import type { MemoryMessage, SpeakerConfig } from '../chunking/memory-message.js';
import type { StoredPointId, StoredRecord } from '../store/point-store.js';
import type { RetrieveExplanation } from '../wire/retrieve-request.js';
import type { FusedEntry } from './fuse-scores.js';
import { passagePayload } from './passage-payload.js';
import { type Passage, planPassages } from './plan-passages.js';
import { type RecallHit, toRecallHit } from './recall-hit.js';
import type { HybridRanking } from './search-hybrid.js';

export interface PassageSources {
  readonly bot: string;
  readonly speakers: SpeakerConfig;
  /** Reads chunk points by id (those the chunk search did not return). */
  readonly readChunks: (ids: readonly StoredPointId[]) => Promise<StoredRecord[]>;
  /** Which of these message ids were forgotten. */
  readonly forgottenIds: (bot: string, messageIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /** A chunk's messages as the journal holds them; without it every hit is its whole chunk. */
  readonly chunkMessages?: (chunkId: string) => Promise<readonly MemoryMessage[]>;
  /**
   * The query's dense cosine with these parts (found by their words alone, so the dense search did not score
   * them); without it, or for a part it leaves out, such a hit scores 0.
   */
  readonly partCosines?: (partIds: readonly string[]) => Promise<ReadonlyMap<string, number>>;
}

type Payload = Readonly<Record<string, unknown>>;

const idsOf = (payload: Payload | undefined): string[] => splitMessageIds(payload?.messageIds);

/** Up to `limit` hits for the ranking, best first, none holding an excluded or forgotten message. */
export async function recallPassages(
  sources: PassageSources,
  ranking: HybridRanking,
  options: { readonly limit: number; readonly excludeMessageIds: ReadonlySet<string> },
): Promise<RecallHit[]> {
  const points = new Map<string, { id: StoredPointId; payload: Payload }>(ranking.chunks);
  const checked = new Set<string>();
  const skipChunks = new Set<string>();
  let cosines: Promise<AskedCosines> | undefined;
  for (;;) {
    const passages = planPassages(ranking.entries, {
      limit: options.limit,
      excludeMessageIds: options.excludeMessageIds,
      skipChunks,
      chunkMessageIds: (chunkId) => idsOf(points.get(chunkId)?.payload),
    });
    // The first plan's word-only parts are asked their cosine now, beside the chunk reads below, not after
    // them: a read after the rest cost ~13 ms at 10,000 chunks (issue 37). A part a later plan adds is
    // asked then (toHits).
    if (cosines === undefined) {
      cosines = scoreUnscored(sources, passages, { asked: new Set(), cosines: new Map() });
      cosines.catch(() => undefined); // awaited below unless a chunk read fails first
    }
    const unchecked = [...new Set(passages.map((p) => p.chunkId))].filter((id) => !checked.has(id));
    if (unchecked.length === 0) {
      return await toHits(sources, passages, points, options.excludeMessageIds, await cosines);
    }
    const missing = unchecked.filter((id) => !points.has(id));
    if (missing.length > 0) {
      for (const record of await sources.readChunks(missing)) {
        points.set(String(record.id), { id: record.id, payload: record.payload });
      }
    }
    const forgotten = await sources.forgottenIds(
      sources.bot,
      unchecked.flatMap((id) => idsOf(points.get(id)?.payload)),
    );
    for (const id of unchecked) {
      checked.add(id);
      const point = points.get(id);
      // A part whose chunk is gone (deleted by another writer) ranks nothing; a forget in flight hides all.
      if (point === undefined || idsOf(point.payload).some((m) => forgotten.has(m))) skipChunks.add(id);
    }
  }
}

/** The cosines asked of `partCosines` so far, and which parts were asked (it may leave some out). */
interface AskedCosines {
  readonly asked: ReadonlySet<string>;
  readonly cosines: ReadonlyMap<string, number>;
}

/**
 * The cosines of the passages' parts no dense search scored (found by their words alone): those `before`
 * holds, and the parts it did not ask, asked of `partCosines` in one call (none when all were asked).
 */
async function scoreUnscored(
  sources: PassageSources,
  passages: readonly Passage[],
  before: AskedCosines,
): Promise<AskedCosines> {
  const unscored = passages.flatMap(({ entry }) =>
    denseScore(entry) === undefined && entry.part && !before.asked.has(entry.part.id) ? [entry.part.id] : [],
  );
  if (unscored.length === 0 || sources.partCosines === undefined) return before;
  const found = await sources.partCosines(unscored);
  return { asked: new Set([...before.asked, ...unscored]), cosines: new Map([...before.cosines, ...found]) };
}

async function toHits(
  sources: PassageSources,
  passages: readonly Passage[],
  points: ReadonlyMap<string, { id: StoredPointId; payload: Payload }>,
  excluded: ReadonlySet<string>,
  asked: AskedCosines,
): Promise<RecallHit[]> {
  const messages = new Map<string, readonly MemoryMessage[]>();
  const wholeChunks = new Set<string>();
  const trimmedChunks = new Set<string>();
  const hits: RecallHit[] = [];
  const { cosines } = await scoreUnscored(sources, passages, asked);
  for (const passage of passages) {
    const point = points.get(passage.chunkId)!;
    const { entry } = passage;
    const score = denseScore(entry) ?? (entry.part ? cosines.get(entry.part.id) : undefined) ?? 0;
    const explain = explainEntry(passage.entry);
    let payload: Payload | undefined = point.payload;
    if (passage.messageIds !== undefined) {
      let held = messages.get(passage.chunkId);
      if (held === undefined) {
        held = (await sources.chunkMessages?.(passage.chunkId)) ?? [];
        messages.set(passage.chunkId, held);
      }
      payload = passagePayload(point.payload, held, passage.messageIds, sources.speakers);
    }
    if (payload === undefined) {
      // The passage cannot be cut from this chunk: the whole chunk stands in, once, as st would return it.
      // (Not beside passages already cut from it: that would repeat their messages.)
      if (wholeChunks.has(passage.chunkId) || trimmedChunks.has(passage.chunkId)) continue;
      if (idsOf(point.payload).some((id) => excluded.has(id))) continue;
      payload = point.payload;
    }
    (payload === point.payload ? wholeChunks : trimmedChunks).add(passage.chunkId);
    hits.push({ ...toRecallHit({ id: point.id, score, payload }), explain });
  }
  return hits;
}

/** The entry's dense cosine, when a dense search scored it. */
const denseScore = (entry: FusedEntry): number | undefined =>
  entry.signals.part_dense?.score ?? entry.signals.chunk_dense?.score;

/** What `explain: true` says about a hybrid hit: the signals and the part that ranked it. */
function explainEntry(entry: FusedEntry): RetrieveExplanation {
  const { chunk_dense, part_dense, part_lexical } = entry.signals;
  const partId = entry.part ? { part_id: entry.part.id } : {};
  return {
    mode: 'hybrid',
    fused: entry.fused,
    signals: {
      ...(chunk_dense ? { chunk_dense } : {}),
      ...(part_dense ? { part_dense: { ...part_dense, ...partId } } : {}),
      ...(part_lexical ? { part_lexical: { ...part_lexical, ...partId } } : {}),
    },
    parts: entry.part
      ? [
          {
            id: entry.part.id,
            message_ids: entry.part.messageIds,
            ...(part_dense ? { part_dense } : {}),
            ...(part_lexical ? { part_lexical } : {}),
          },
        ]
      : [],
  };
}
