/** @module The wire contract of `POST /retrieve`, shared by the server and the TypeScript client. */
import { z } from 'zod';

/** The most channel ids `readable_channel_ids` takes. */
export const MAX_READABLE_CHANNEL_IDS = 20_000;

export const retrieveRequestSchema = z.object({
  bot: z.string({ message: 'must name a configured bot' }).min(1, 'must name a configured bot'),
  query_text: z.string({ message: 'must be a string' }).min(1, 'must not be empty').max(20_000),
  /** Message ids already in the caller's context: hits holding any of them are left out. */
  exclude_message_ids: z.array(z.string()).max(1000).optional(),
  /**
   * The channels (and threads) of `guild_id` the asker may read: a memory of that server is recalled only from
   * one of them (what it cannot be told about stays out); memories of no server are not affected. Needs
   * `guild_id`, checked where recall starts (a refinement here would stop users of this exported schema from
   * calling `.pick()` or `.omit()` on it).
   */
  readable_channel_ids: z.array(z.string()).max(MAX_READABLE_CHANNEL_IDS).optional(),
  limit: z.number().int().min(1).max(50).optional(),
  score_threshold: z.number().min(-1).max(1).optional(),
  /** Where the request comes from, for the bot's privacy scope (`retrieve.scope`). */
  guild_id: z.string().min(1).max(200).optional(),
  channel_id: z.string().min(1).max(200).optional(),
  /** Inferred when absent: a channel_id without a guild_id is a DM. */
  is_dm: z.boolean().optional(),
  /** Narrow the bot's scope (never widen it): `dm-private`, `guild` or `channel`. */
  scope: z.enum(['global', 'dm-private', 'guild', 'channel']).optional(),
  /** Only points written by these interfaces (SillyTavern's points have no source, so they are left out). */
  sources: z.array(z.string().min(1).max(100)).min(1).max(20).optional(),
  /** Say, per hit, which parts and which signals ranked it (`hits[].explain`). */
  explain: z.boolean({ message: 'must be true or false' }).optional(),
});

export type RetrieveRequest = z.infer<typeof retrieveRequestSchema>;

/** One recalled chunk, with the payload fields of the shared format. */
export interface RetrieveHit {
  readonly id: string | number;
  readonly score: number;
  readonly text: string;
  readonly speakers: string;
  readonly timestamp: number;
  readonly messageIds: string;
  readonly messageCount: number;
  readonly source?: string;
  readonly channelId?: string;
  readonly guildId?: string;
  /** Only with `explain: true`: why the hit ranked where it did. */
  readonly explain?: RetrieveExplanation;
}

/** One signal's view of a hit: its place in that signal's list (1 = best), and the store's score. */
export interface SignalExplanation {
  readonly rank: number;
  /** Cosine similarity for the dense signals, BM25 (with the store's idf) for the lexical one. */
  readonly score: number;
  /** For part signals: the part the hit was cut from. */
  readonly part_id?: string;
}

/** Why a hit ranked where it did. */
export interface RetrieveExplanation {
  /** `hybrid` (parts and chunks fused), or `chunk-only` (the collection's parts index is not complete). */
  readonly mode: 'hybrid' | 'chunk-only';
  /**
   * Hybrid: 0.5 × the dense cosine and 0.5 × the BM25 score, each min-max normalized over its list (0..1);
   * chunk-only: 0.
   */
  readonly fused: number;
  readonly signals: {
    readonly chunk_dense?: SignalExplanation;
    readonly part_dense?: SignalExplanation;
    readonly part_lexical?: SignalExplanation;
  };
  /** The part the hit was cut from (none for a whole chunk): its messages, its rank and score per signal. */
  readonly parts: readonly {
    readonly id: string;
    readonly message_ids: string;
    readonly part_dense?: { readonly rank: number; readonly score: number };
    readonly part_lexical?: { readonly rank: number; readonly score: number };
  }[];
}

export interface RetrieveResponse {
  readonly hits: readonly RetrieveHit[];
  /** The ready-to-inject `[Past chat memories]` block, or "" when nothing was found. */
  readonly formatted: string;
}
