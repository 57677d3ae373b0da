/** @module The wire contract of `POST /retrieve`, shared by the server and the TypeScript client. */
import { z } from 'zod';
import { isCleanText, NOT_CLEAN_TEXT } from './clean-text.js';
import { isTimeZone } from './time-zone.js';

/** The most characters `max_chars` may ask for. */
export const MAX_CHARS = 100_000;
const MAX_CHARS_FIX = `must be a whole number of characters from 1 to ${MAX_CHARS}, e.g. 2000`;

const NOISE_CUT_FIX = 'must be a number from 0 (no cut) to 1, e.g. 0.12';

/** The most channel ids `readable_channel_ids` takes. */
export const MAX_READABLE_CHANNEL_IDS = 20_000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;
const INSTANT_FIX =
  'must be an ISO 8601 date-time with its offset (2026-05-14T09:30:00+02:00) or Unix ms (1778743800000), from 1970 to 9999';
const BOUND_FIX =
  'must be an ISO 8601 date (2026-05-14: the whole day in tz), a date-time with its offset (2026-05-14T09:30:00+02:00) or Unix ms, from 1970 to 9999';
/** The last Unix ms of year 9999: later is no date a memory has. */
const MAX_MS = 253_402_300_799_999;

/** Unix ms from 1970 to 9999, or an ISO date-time with its offset (and, for a bound, a plain ISO date). */
function isTimeValue(value: string | number, dateAllowed: boolean): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= MAX_MS;
  // A round trip, since Date.parse rolls 30 February over into March.
  // Strings have the same floor as numbers: no memory is dated before 1970 ("0000-01-01" is a typo).
  if (dateAllowed && DATE.test(value)) return isRealDate(value) && value >= '1970-01-01';
  // The same ceiling as numbers: "9999-12-31T23:00:00-05:00" is already year 10000 in UTC.
  if (!DATE_TIME.test(value) || !isRealDate(value.slice(0, 10))) return false;
  const ms = Date.parse(value);
  return ms >= 0 && ms <= MAX_MS;
}

function isRealDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

/** An instant: ISO 8601 date-time with its offset (`Z` or `+02:00`), or Unix ms. */
const instantField = z
  .union([z.number(), z.string()], { error: INSTANT_FIX })
  .refine((value) => isTimeValue(value, false), INSTANT_FIX);
/** A bound of a time window: an instant, or an ISO date (a whole day in `tz`). */
const boundField = z
  .union([z.number(), z.string()], { error: BOUND_FIX })
  .refine((value) => isTimeValue(value, true), BOUND_FIX);

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
  /**
   * The most characters the `formatted` block may hold: the best hits are taken while the block stays within
   * it, whole hits only (a passage is one or a few whole messages), whichever of this and `limit` ends first.
   * Default: the bot's `retrieve.maxChars`, unset (no character budget).
   */
  max_chars: z
    .number({ message: MAX_CHARS_FIX })
    .int(MAX_CHARS_FIX)
    .min(1, MAX_CHARS_FIX)
    .max(MAX_CHARS, MAX_CHARS_FIX)
    .optional(),
  score_threshold: z.number().min(-1).max(1).optional(),
  /**
   * Answer nothing when words no memory holds carry at least this share of the question's meaning (0 to 1; 0
   * turns the cut off) and no memory matches closely. Default: the bot's `retrieve.noiseCut.share`.
   */
  noise_cut: z.number({ message: NOISE_CUT_FIX }).min(0, NOISE_CUT_FIX).max(1, NOISE_CUT_FIX).optional(),
  /** Where the request comes from, for the bot's privacy scope (`retrieve.scope`). */
  guild_id: z.string().min(1).max(200).optional(),
  channel_id: z.string().min(1).max(200).optional(),
  /** Inferred when absent: a channel_id without a guild_id is a DM. */
  is_dm: z.boolean().optional(),
  /**
   * Who asks, in a DM (docs/people.md): a person linked across accounts recalls the DMs of all their accounts, on
   * every platform, never anyone else's. Sent by the interface key that vouches for its users, as in /save.
   */
  discord_user_id: z.string().min(1).max(200).refine(isCleanText, NOT_CLEAN_TEXT).optional(),
  user_id: z.string().min(1).max(200).refine(isCleanText, NOT_CLEAN_TEXT).optional(),
  /** Only memories where this person of the bot speaks (`GET /bots/{bot}/people` lists their ids). */
  person: z
    .string({ message: 'must be a person id of the bot' })
    .min(1)
    .max(200)
    .refine(isCleanText, NOT_CLEAN_TEXT)
    .optional(),
  /** Narrow the bot's scope (never widen it): `dm-private`, `guild` or `channel`. */
  scope: z.enum(['global', 'dm-private', 'guild', 'channel']).optional(),
  /** Only points written by these interfaces (SillyTavern's points have no source, so they are left out). */
  sources: z.array(z.string().min(1).max(100)).min(1).max(20).optional(),
  /** Say, per hit, which parts and which signals ranked it (`hits[].explain`). */
  explain: z.boolean({ message: 'must be true or false' }).optional(),
  /** The asker's "now", for the time the query names ("yesterday"); default the service's clock. */
  now: instantField.optional(),
  /** The asker's IANA zone (`Europe/Paris`); default the bot's `timezone` (default UTC). */
  tz: z
    .string({ message: 'must be an IANA time zone such as Europe/Paris' })
    .refine(isTimeZone, 'is not an IANA time zone: send one such as Europe/Paris, Asia/Tokyo or UTC')
    .optional(),
  /**
   * Recall only memories from this instant on (a date: from its start in `tz`); with `time_to`, or alone.
   * An explicit window replaces any time the query names. After `time_to` is checked where recall starts.
   */
  time_from: boundField.optional(),
  /** Recall only memories before this instant (a date: up to the end of that day in `tz`). */
  time_to: boundField.optional(),
  /** `auto` (default): read the time the query names; `off`: the query's words are only words. */
  time_hint: z.enum(['auto', 'off'], { message: 'must be "auto" or "off"' }).optional(),
});

export type RetrieveRequest = z.infer<typeof retrieveRequestSchema>;

/** One recalled chunk, with the payload fields of the shared format. */
export interface RetrieveHit {
  readonly id: string | number;
  /**
   * The query's dense cosine similarity with the hit (its passage's part, or the whole chunk), as
   * st-qdrant-memory shows it: the same scale for every query. Hits come in recall's order (the fusion under
   * `explain.fused`), so a lower score may come first.
   */
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

/** With `explain: true`, the time window recall used, and whether the query or the request named it. */
export interface TimeWindowExplanation {
  /** ISO 8601 instants (UTC) bounding the window: from inclusive, to exclusive. */
  readonly from: string;
  readonly to: string;
  readonly source: 'query' | 'request';
  /** The words that named it ("yesterday"), or the request's bounds. */
  readonly text: string;
  /**
   * `narrow`: only memories in the window; `weigh`: memories in it rank higher (a vague "a while ago", a
   * yearless month, or a window with no memories asked about with a topic: it may name when it happened).
   */
  readonly use: 'narrow' | 'weigh';
  /** The IANA zone the window was read in. */
  readonly tz: string;
}

export interface RetrieveResponse {
  readonly hits: readonly RetrieveHit[];
  /** The ready-to-inject `[Past chat memories]` block, or "" when nothing was found. */
  readonly formatted: string;
  /** Only with `explain: true` and a window in use: which one. */
  readonly time_window?: TimeWindowExplanation;
  /** Only with `explain: true` when the noise cut emptied the answer: why (docs/recall.md). */
  readonly noise_cut?: NoiseCutExplanation;
}

/** Why recall answered nothing: the question's words no memory holds, and the share of its meaning they carry. */
export interface NoiseCutExplanation {
  readonly unsaid_words: readonly string[];
  /** 1 − the cosine of the question with and without those words (0 to 1). */
  readonly share: number;
}
