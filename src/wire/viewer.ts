/** @module The wire contract of the memory viewer's read routes (`/whoami`, `/bots/{bot}/points...`), shared with the page. */

import type { RetrieveHit } from './retrieve-request.js';

/** An operation a key may run; `open` callers (no keys configured) may run all of them. */
export type ViewerOperation = 'save' | 'retrieve' | 'forget' | 'admin';

/** `GET /whoami`: who the caller is and what it may do, so the page shows only what works. */
export interface WhoamiResponse {
  /** The key's name; null when the service runs without keys (loopback only). */
  readonly key: string | null;
  /** What the caller may do (admin implies the others, and is listed with them). */
  readonly operations: readonly ViewerOperation[];
  /** The bots the caller may use, with the collection and recall scope of each. */
  readonly bots: readonly { readonly name: string; readonly collection: string; readonly scope: string }[];
  /** Sources the caller may save and forget as; `'*'` for all. */
  readonly sources: readonly string[] | '*';
}

/** One stored point as the timeline shows it: a recall hit's fields without a score (SillyTavern's points included). */
export interface TimelinePoint extends Omit<RetrieveHit, 'score' | 'explain'> {
  readonly isDm?: true;
  /** The point has no timestamp the page can show (none, not a number, out of range); `timestamp` is then 0. */
  readonly undated?: true;
}

/** `GET /bots/{bot}/points`: one page, newest first, the undated points after all dated ones. */
export interface TimelinePageResponse {
  readonly points: readonly TimelinePoint[];
  /**
   * `newest-first`; `storage` (by id) while the collection has no timestamp index, which memory-pool asks the
   * store for at start-up and before its next write there (SillyTavern may have just recreated the collection).
   */
  readonly order: 'newest-first' | 'storage';
  /** Pass as `cursor` for the next page; null after the last one. */
  readonly next_cursor: string | null;
  /** Points matching the filter (every page counts them again, so a count never goes stale). */
  readonly total: number;
}

/** One journal message of a memory-pool point, with what `/save` needs to edit it in place. */
export interface PointMessage {
  readonly message_id: string;
  readonly source: string;
  readonly speaker_kind: 'user' | 'self';
  readonly text: string;
  readonly ts: number;
  readonly user_id?: string;
  readonly speaker_name?: string;
  readonly channel_id?: string;
  readonly guild_id?: string;
  readonly is_dm?: true;
}

/** `GET /bots/{bot}/points/{id}`: the point and, for memory-pool's points, its messages from the journal. */
export interface PointDetailResponse {
  readonly point: TimelinePoint;
  /** Empty for SillyTavern's points (and for a point the journal does not know). */
  readonly messages: readonly PointMessage[];
}

/** `GET /bots/{bot}/forget-selection`: what forgetting everything matching a filter removes, exactly. */
export interface ForgetSelectionResponse {
  /** Points that go: memory-pool's points matching the filter whose messages the journal holds (and SillyTavern's for admin keys). */
  readonly points: number;
  /** Journal messages that go; see `message_ids_by_source` for how to forget them. */
  readonly messages: number;
  readonly message_ids: readonly string[];
  /**
   * The same ids by the source that wrote them: send each group to `/forget` as `message_ids` with its
   * `source`, so an id another source also used is not forgotten there (the counts above stay exact).
   */
  readonly message_ids_by_source: Readonly<Record<string, readonly string[]>>;
  /**
   * SillyTavern's matching points, for a key that may forget them (admin; counted in `points`, and the
   * messages they hold in `messages`): send them to `/forget` as `point_ids` with `include_unsourced: true`.
   * Empty for other keys.
   */
  readonly unsourced_point_ids: readonly (string | number)[];
  /** Matching points that stay: SillyTavern's (but for admin keys), another source than the key may forget, or unknown to the journal. */
  readonly kept: number;
}

/** `PUT /bots/{bot}/points/{id}/text`: a SillyTavern point re-embedded in place (same id). */
export interface PointTextResponse {
  readonly ok: true;
  readonly point: TimelinePoint;
}
