/**
 * @module `POST /retrieve`'s work, with st-qdrant-memory's semantics: search `limit * 2` above the score
 * threshold (within the bot's privacy scope), leave out hits holding excluded or forgotten message ids and
 * near-duplicates, keep `limit`, format the block. With a complete parts index the hits are passages of
 * chunks (recall-passages). Bounded by a deadline: clients give up after 3.5 s.
 */

import { readHeldMessageIds } from '../chunking/held-message-ids.js';
import type { MemoryMessage, PeopleNames } from '../chunking/memory-message.js';
import type { BotConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { isMemoryPoolError, MemoryPoolError, ValidationError } from '../errors/memory-pool-error.js';
import type { AccountKey, DmChannel } from '../journal/journal-people.js';
import type { Logger } from '../logging/logger.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import type { PartsGuard } from '../parts/parts-guard.js';
import { withDeadline } from '../runtime/abort-deadline.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { ScoredStorePoint, StoreFilter } from '../store/point-store.js';
import { joinFilters } from '../store/store-filters.js';
import type {
  RetrieveExplanation,
  RetrieveHit,
  RetrieveRequest,
  RetrieveResponse,
} from '../wire/retrieve-request.js';
import { fitRecallToChars } from './fit-recall-chars.js';
import { formatRecall } from './format-recall.js';
import { cutNoise, type NoiseCutSettings, startNoiseCut } from './noise/cut-noise.js';
import { findHeldTerms } from './noise/find-held-terms.js';
import { type PersonSpeakerNames, readPersonFilter } from './person-speaker-filter.js';
import { type RecallHit, toRecallHit } from './recall-hit.js';
import { recallPassages } from './recall-passages.js';
import { buildRecallFilter } from './recall-scope.js';
import { type HybridSearch, searchHybrid, type WordSearches } from './search-hybrid.js';
import { searchSplit } from './search-split.js';
import { selectHits } from './select-hits.js';
import { splitQuestion } from './split-question.js';
import { startEarlyRecall } from './start-early-recall.js';
import { explainTimeWindow, resolveRecallTime } from './time/resolve-recall-time.js';
import { timeFilter } from './time/time-filter.js';
import { weighByWindow } from './time/weigh-by-window.js';

export interface RetrieveDeps {
  readonly store: MemoryStore;
  /** Decides whether a collection's parts index can be used (else recall is chunk-only, as before parts). */
  readonly partsGuard?: PartsGuard;
  /** Should be cached: clients ask the same query again (retries, concurrent interfaces). */
  readonly embedder: Embedder;
  readonly guard: CollectionGuard;
  /** Which of these message ids were forgotten: a hit holding one is never returned, even mid-forget. */
  readonly forgottenIds: (bot: string, messageIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /**
   * A chunk's messages as the journal holds them, so hybrid recall can return just the messages that
   * matched; without it every hit is its whole chunk.
   */
  readonly chunkMessages?: (chunkId: string) => Promise<readonly MemoryMessage[]>;
  /** The bot's linked people, so a passage is cut from a chunk written under their names (the writer's cache). */
  readonly peopleNames?: (bot: string) => Promise<PeopleNames>;
  /**
   * The DMs of the account itself (`own`) and of the person it is linked to (`person`, all their accounts), and
   * the `dmWith` values naming that person when they can be trusted (people/read-person-dms.ts); undefined when
   * it is linked to nobody.
   */
  readonly personDms?: (
    bot: string,
    account: AccountKey,
  ) => Promise<
    | {
        readonly own: readonly DmChannel[];
        readonly person: readonly DmChannel[];
        readonly dmWith?: readonly string[];
      }
    | undefined
  >;
  /** The names a person of the bot speaks under, for `/retrieve { person }`. */
  readonly personSpeakerNames?: PersonSpeakerNames;
  /** Whole-request deadline in ms (default 3000, inside the clients' 3.5 s). */
  readonly deadlineMs?: number;
  /**
   * Told (not awaited) of chunks hybrid recall's parts pointed to but the collection does not hold: the
   * service deletes their parts when the journal says they were stored (see drop-stale-parts.ts).
   */
  readonly onChunksMissing?: (collection: string, chunkIds: readonly string[]) => void;
  /** Where a failed clean-up behind recall is told (recall itself still answers). */
  readonly logger?: Pick<Logger, 'warn'>;
}

/**
 * Who asks, for the DM widening: the key's source (where its DMs are saved; undefined without auth: any) and
 * whether it may vouch for an account (people's account-vouchers). Without it a request is never widened.
 */
export interface RecallAsker {
  readonly source: string | undefined;
  readonly mayVouch: (account: AccountKey) => boolean;
}

const EMPTY: RetrieveResponse = { hits: [], formatted: '' };
const DEFAULT_DEADLINE_MS = 3_000;

/** Recalls the best chunks of `bot`'s collection for the request's query. */
export async function retrieveMemories(
  deps: RetrieveDeps,
  bot: BotConfig,
  request: RetrieveRequest,
  signal?: AbortSignal,
  asker?: RecallAsker,
): Promise<RetrieveResponse> {
  if (request.readable_channel_ids !== undefined && request.guild_id === undefined) {
    throw new ValidationError(
      'readable_channel_ids',
      'needs guild_id: it lists the channels of that server the asker may read',
    );
  }
  const deadlineMs = deps.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const timeoutError = () =>
    new MemoryPoolError(
      'recall_timeout',
      `recall did not finish within ${deadlineMs} ms; retry, and check GET /ready`,
      {
        status: 503,
        retryable: true,
      },
    );
  // The store client cannot be aborted, so the deadline also stops the wait for the whole recall; an error
  // of the service's own (the embedder's, the store's) is reported as it is, anything else as the deadline.
  return withDeadline(
    deadlineMs,
    { signal, onTimeout: (error) => (isMemoryPoolError(error) ? error : timeoutError()) },
    (combined) => recall(deps, bot, request, combined, asker),
  );
}

async function recall(
  deps: RetrieveDeps,
  bot: BotConfig,
  request: RetrieveRequest,
  signal: AbortSignal,
  asker: RecallAsker | undefined,
): Promise<RetrieveResponse> {
  const limit = request.limit ?? bot.retrieve.limit;
  // The query without the words that named its window is what is embedded and matched by word.
  const time = resolveRecallTime(request, bot.timezone);
  const { window } = time;
  const personDms = await readAskerDms(deps, bot, request, asker);
  const person = await readPersonFilter(deps.personSpeakerNames, bot, request.person);
  const placeFilter = buildRecallFilter(
    bot.retrieve.scope,
    {
      ...(request.guild_id === undefined ? {} : { guildId: request.guild_id }),
      ...(request.channel_id === undefined ? {} : { channelId: request.channel_id }),
      ...(request.is_dm === undefined ? {} : { isDm: request.is_dm }),
      ...(personDms === undefined ? {} : { personDms: personDms.channels }),
      ...(personDms?.dmWith === undefined ? {} : { personDmWith: personDms.dmWith }),
    },
    {
      ...(request.scope ? { scope: request.scope } : {}),
      ...(request.sources ? { sources: request.sources } : {}),
      ...(request.readable_channel_ids ? { readableChannelIds: request.readable_channel_ids } : {}),
    },
  );
  const scopeFilter = person === undefined ? placeFilter : joinFilters(person.filter, placeFilter);
  const defaultThreshold = request.score_threshold ?? bot.retrieve.scoreThreshold;
  // A precise window narrows, and is the question: its memories are recalled, most relevant first, however
  // little their words resemble the question's (no score threshold unless the request sets one). Bounds
  // sent with a topical query filter that topic's recall: the bot's threshold holds (docs/recall.md).
  const first = window?.precise
    ? {
        filter: joinFilters(scopeFilter, timeFilter(window)),
        threshold: time.topical && window.source === 'request' ? defaultThreshold : request.score_threshold,
      }
    : { filter: scopeFilter, threshold: defaultThreshold };
  const embedding = deps.embedder.embed([time.queryText], { signal, query: true });
  const noiseCut = readNoiseCut(bot, request);
  const noiseStart =
    noiseCut &&
    startNoiseCut({
      queryText: time.queryText,
      findHeldTerms: (terms) => findHeldTerms(deps.store, bot.collection, terms, scopeFilter),
      embedQuery: async (text) => (await deps.embedder.embed([text], { signal, query: true }))[0],
    });
  const split = splitQuestion(time.queryText);
  // The model embeds in a worker thread (or a provider does, remotely): meanwhile this thread checks the
  // collection and sends the searches that need no vector (start-early-recall.ts).
  const early = startEarlyRecall(deps, hybridSearch(bot.collection, time.queryText, limit, first), embedding);
  const [vector] = await embedding;
  if (vector === undefined) return EMPTY;
  const ahead = early?.dimensions === vector.length ? early : undefined;
  // Nothing was ever written: recall is empty, not an error (the collection is created on first write).
  const readable =
    ahead?.readable ?? deps.guard.checkReadable(bot.collection, deps.embedder.model, vector.length);
  if (!(await readable)) return EMPTY;
  let candidates: RecallHit[] = [];
  let forgotten: ReadonlySet<string> = new Set();
  let weighed = window !== undefined && !window.precise;
  /** Whether the candidates came from the hybrid search (chunk-only recall has no word index). */
  let searchedWords = false;
  const excluded = new Set(
    (request.exclude_message_ids ?? []).map((id) => id.trim()).filter((id) => id !== ''),
  );
  /** `started`: this search's word searches, sent while the model embedded (undefined: chunk-only). */
  const search = async (
    filter: StoreFilter | undefined,
    scoreThreshold: number | undefined,
    started?: Promise<WordSearches | undefined>,
  ) => {
    const words = await started;
    const hybrid =
      started === undefined
        ? deps.partsGuard !== undefined &&
          (await deps.partsGuard.checkPartsUsable(bot.collection, deps.embedder.model, vector.length))
        : words !== undefined;
    if (hybrid) {
      const sent = hybridSearch(bot.collection, time.queryText, limit, { filter, threshold: scoreThreshold });
      // A question about what each of several people did ("both", "each") is searched once per person
      // (split-question.ts); the word search sent early for the whole question is then left unused.
      const ranking =
        split === undefined
          ? await searchHybrid(deps.store, { ...sent, vector: Array.from(vector) }, words)
          : await searchSplit(deps.store, deps.embedder, sent, split, {
              signal,
              anyWholeChunk: words?.anyWholeChunk,
            });
      searchedWords = true;
      candidates = await recallPassages(
        {
          bot: bot.name,
          speakers: { ...bot, people: await deps.peopleNames?.(bot.name) },
          readChunks: async (ids) => {
            const records = await deps.store.retrievePoints(bot.collection, ids);
            // Chunks gone behind memory-pool's back (the collection deleted and created again) leave parts.
            const held = new Set(records.map((record) => String(record.id)));
            const gone = ids.map(String).filter((id) => !held.has(id));
            if (gone.length > 0) deps.onChunksMissing?.(bot.collection, gone);
            return records;
          },
          forgottenIds: deps.forgottenIds,
          ...(deps.chunkMessages ? { chunkMessages: deps.chunkMessages } : {}),
          partCosines: (ids) => scorePartsByVector(deps.store, bot.collection, vector, ids),
        },
        ranking,
        { limit: limit * 2, excludeMessageIds: excluded },
      );
    } else {
      searchedWords = false;
      const points = await deps.store.searchPoints(bot.collection, {
        vector: Array.from(vector),
        limit: limit * 2,
        ...(scoreThreshold === undefined ? {} : { scoreThreshold }),
        ...(filter ? { filter } : {}),
        // A collection in st-qdrant-memory's hybrid fork layout also ranks by the query's words.
        queryText: time.queryText,
      });
      candidates = points.map((point, index) => ({
        ...toRecallHit(point),
        explain: chunkOnly(point, index),
      }));
      forgotten = await deps.forgottenIds(
        bot.name,
        candidates.flatMap((hit) => readHeldMessageIds(hit.messageIds)),
      );
    }
  };
  try {
    await search(first.filter, first.threshold, ahead?.words);
    // With a topic, an empty precise window may be the day it happened, not the day it was talked about: weigh.
    if (window?.precise && candidates.length === 0 && !time.timeOnly) {
      weighed = true;
      await search(scopeFilter, defaultThreshold);
    }
  } catch (error) {
    if (!isMemoryPoolError(error) || error.code !== 'collection_missing') throw error;
    // Deleted by another client: nothing to recall until rewritten; its parts hold the deleted memories'
    // text, so they go too (and are checked again on the next write).
    deps.guard.invalidate(bot.collection);
    // Not awaited: recall answers now, and a store hiccup during the delete is no failure of recall.
    void deps.partsGuard?.dropIfCollectionGone(bot.collection).catch((error: unknown) => {
      deps.logger?.warn(
        { collection: bot.collection, err: error },
        'could not delete the parts of a deleted collection',
      );
    });
    return EMPTY;
  }
  // The store matched the person's names as substrings: keep the hits where one is a whole speaker.
  if (person !== undefined) candidates = candidates.filter((hit) => person.keeps(hit));
  if (window !== undefined && weighed) candidates = weighByWindow(candidates, window);
  const chosen = selectHits(candidates, { limit, excludeMessageIds: [...excluded, ...forgotten] });
  // A precise window is the question (its memories whatever their words): no topic to find unsaid, unless it
  // held nothing and only weighs. Chunk-only recall has no word index to say what is unsaid.
  const cutting = (!window?.precise || weighed) && searchedWords;
  const { hits: selected, cut } =
    noiseCut === undefined || noiseStart === undefined || !cutting
      ? { hits: chosen }
      : await cutNoise(chosen, noiseCut, noiseStart, vector);
  // Whichever ends first: `limit` hits, or the block's characters (unset: no character budget, as before).
  const maxChars = request.max_chars ?? bot.retrieve.maxChars;
  const hits = maxChars === undefined ? selected : fitRecallToChars(selected, maxChars);
  const explained = request.explain === true ? explainTimeWindow(time, weighed) : undefined;
  return {
    hits: hits.map((hit) => toRetrieveHit(hit, request.explain === true)),
    formatted: formatRecall(hits),
    ...(explained ? { time_window: explained } : {}),
    ...(request.explain === true && cut
      ? { noise_cut: { unsaid_words: cut.unsaidWords, share: cut.share } }
      : {}),
  };
}

/** The noise cut's settings: the request's `noise_cut` share, else the bot's; undefined when off. */
function readNoiseCut(bot: BotConfig, request: RetrieveRequest): NoiseCutSettings | undefined {
  const configured = bot.retrieve.noiseCut;
  const share = request.noise_cut ?? configured?.share ?? 0;
  // Without a configured floor (a bot built in code), only the share decides: no best hit is safe by its score.
  return share > 0 ? { share, score: configured?.score ?? 1 } : undefined;
}

/** One hybrid search of `collection` for the query, without its vector (sent before the vector exists). */
function hybridSearch(
  collection: string,
  queryText: string,
  limit: number,
  within: { readonly filter: StoreFilter | undefined; readonly threshold: number | undefined },
): Omit<HybridSearch, 'vector'> {
  return {
    collection,
    queryText,
    candidates: limit * 2,
    ...(within.threshold === undefined ? {} : { scoreThreshold: within.threshold }),
    ...(within.filter ? { filter: within.filter } : {}),
  };
}

/**
 * The query's dense cosine with each of these parts, by id (a lookup: a search restricted to the ids would test
 * the filter on every part of a large collection); the embedded store answers the cosines, not the vectors.
 */
async function scorePartsByVector(
  store: MemoryStore,
  collection: string,
  vector: Float32Array | readonly number[],
  partIds: readonly string[],
): Promise<ReadonlyMap<string, number>> {
  return store.scoreDenseVectors(partsCollectionName(collection), vector, partIds);
}

/** The wire shape: RecallHit without the formatting-only `legacySpeaker`, and `explain` only when asked. */
function toRetrieveHit(hit: RecallHit, explain: boolean): RetrieveHit {
  const { legacySpeaker: _legacy, explain: explanation, ...wire } = hit;
  return explain && explanation ? { ...wire, explain: explanation } : wire;
}

/** What `explain: true` says about a chunk-only hit: its place and cosine in the one search. */
function chunkOnly(point: ScoredStorePoint, index: number): RetrieveExplanation {
  return {
    mode: 'chunk-only',
    fused: 0,
    signals: { chunk_dense: { rank: index + 1, score: point.score } },
    parts: [],
  };
}

/**
 * Asked in a DM by an account linked to a person: that person's DMs on every platform (their DM scope). The asker
 * is the account the request names (`discord_user_id` is the account `discord:<id>`), and only counts when the
 * key may vouch for it and the request's own DM (the key's source, `channel_id`) is one of that person's DMs:
 * naming someone from another channel must not read their DMs. Undefined (no widening) otherwise.
 */
async function readAskerDms(
  deps: RetrieveDeps,
  bot: BotConfig,
  request: RetrieveRequest,
  asker: RecallAsker | undefined,
): Promise<{ channels: readonly DmChannel[]; dmWith?: readonly string[] } | undefined> {
  const isDm = request.is_dm ?? (request.channel_id !== undefined && request.guild_id === undefined);
  const named =
    request.discord_user_id !== undefined ? `discord:${request.discord_user_id}` : request.user_id;
  const channelId = request.channel_id;
  if (!isDm || named === undefined || channelId === undefined || deps.personDms === undefined)
    return undefined;
  const account: AccountKey = { kind: 'user', value: named };
  if (asker === undefined || !asker.mayVouch(account)) return undefined;
  const dms = await deps.personDms(bot.name, account);
  const inOwnDm = dms?.own.some(
    (dm) => (asker.source === undefined || dm.source === asker.source) && dm.channelId === channelId,
  );
  if (dms === undefined || !inOwnDm) return undefined;
  return dms.dmWith === undefined ? { channels: dms.person } : { channels: dms.person, dmWith: dms.dmWith };
}
