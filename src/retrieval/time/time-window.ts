/** @module The time window a recall is narrowed to or weighted by, and where it came from. */

/** What named the window: a calendar unit, a season, the holidays, a range, or a vague phrase. */
export type TimeKind = 'day' | 'week' | 'month' | 'year' | 'season' | 'holidays' | 'range' | 'vague';

/** A window of time, `[from, to)` in Unix ms. */
export interface TimeWindow {
  readonly from: number;
  readonly to: number;
  /** Precise windows narrow the candidates to the window; vague ones ("a while ago") only weigh them. */
  readonly precise: boolean;
  readonly kind: TimeKind;
  /** The words that named it ("yesterday"), or the request's bounds as sent. */
  readonly text: string;
}

/** A time expression found in a query: its window and where its words sit. */
export interface FoundTimeExpression extends TimeWindow {
  readonly index: number;
  readonly length: number;
}

/** The reference a query's time is read against: the asker's `now` and IANA zone. */
export interface TimeReference {
  readonly now: number;
  readonly timeZone: string;
}
