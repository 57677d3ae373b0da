/**
 * @module The time window of one `/retrieve`: the request's own bounds (`time_from`, `time_to`), else the
 * time its query names (unless `time_hint: "off"`), read against the request's `now` and `tz` (defaults:
 * the service's clock, the bot's `timezone`). A request naming no time gets no window and its query as sent.
 */
import { ValidationError } from '../../errors/memory-pool-error.js';
import { tokenizeText } from '../../parts/tokenize-text.js';
import type { RetrieveRequest, TimeWindowExplanation } from '../../wire/retrieve-request.js';
import { parseTimeQuery } from './parse-time-query.js';
import type { TimeWindow } from './time-window.js';
import { addDays, civilDate, startOfDay } from './zone-calendar.js';

export interface RecallTime {
  /** The window recall narrows to (precise) or weighs by (vague); undefined: none. */
  readonly window?: TimeWindow & { readonly source: 'query' | 'request' };
  /** What recall embeds and matches by word: the query without the words that named its window. */
  readonly queryText: string;
  readonly timeZone: string;
  /**
   * The query asks about the window and nothing else ("what did we talk about yesterday?"): an empty window
   * is then the answer. With a topic too, the time may be when it happened rather than when it was said,
   * so an empty window gives way to recall weighed by it.
   */
  readonly timeOnly: boolean;
  /** The query has words beyond its time and asking words: the bot's score threshold still holds. */
  readonly topical: boolean;
}

/** Words that ask what was said without saying about what ("what did we talk about?"). */
const ASKING = new Set(
  tokenizeText('talk discuss chat say tell told remember recall speak spoke conversation happen mention go'),
);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The end of year 9999 UTC, in Unix ms: no window reaches past it. */
const TIME_CEILING_MS = 253_402_300_800_000;

/** Reads the request's window; `clock` is the service's when the request sends no `now`. */
export function resolveRecallTime(
  request: RetrieveRequest,
  botTimeZone: string,
  clock: () => number = Date.now,
): RecallTime {
  const timeZone = request.tz ?? botTimeZone;
  const now = request.now === undefined ? clock() : toInstant(request.now);
  const parsed =
    request.time_hint === 'off'
      ? { contentText: request.query_text }
      : parseTimeQuery(request.query_text, { now, timeZone });
  // A query of time words only ("yesterday?") is still embedded as sent: an empty text has no meaning. A
  // year or a yearless month that only weighs keeps its words: the memory may say "in June" too.
  const strip =
    parsed.window !== undefined &&
    (parsed.window.precise || parsed.window.kind === 'vague') &&
    /[\p{L}\p{N}]/u.test(parsed.contentText);
  const queryText = strip ? parsed.contentText : request.query_text;
  const { timeOnly, topical } = readTopic(parsed.contentText);
  if (request.time_from !== undefined || request.time_to !== undefined) {
    return { window: requestWindow(request, timeZone), queryText, timeZone, timeOnly: true, topical };
  }
  if (parsed.window === undefined) {
    return { queryText: request.query_text, timeZone, timeOnly: false, topical: true };
  }
  return { window: { ...parsed.window, source: 'query' }, queryText, timeZone, timeOnly, topical };
}

/** The opening read first for a topic word: a long query's topic is settled without tokenizing all of it. */
const TOPIC_SCAN_CHARS = 500;

/**
 * Whether the query's words beyond its time only ask what was said (`timeOnly`), and whether it has a topic.
 * Time-only needs an asking word: a query of no content words at all ("Sat down!") asks nothing. The terms
 * of an opening cut at a space are the first terms of the whole, so one topic word there decides for all.
 */
function readTopic(contentText: string): { readonly timeOnly: boolean; readonly topical: boolean } {
  const cut = contentText.length > TOPIC_SCAN_CHARS ? contentText.lastIndexOf(' ', TOPIC_SCAN_CHARS) : -1;
  if (cut > 0 && tokenizeText(contentText.slice(0, cut)).some((term) => !ASKING.has(term))) {
    return { timeOnly: false, topical: true };
  }
  const terms = tokenizeText(contentText);
  return {
    timeOnly: terms.some((term) => ASKING.has(term)) && terms.every((term) => ASKING.has(term)),
    topical: terms.some((term) => !ASKING.has(term)),
  };
}

/** What `explain: true` shows of the window; `weighed`: it only weighed (vague, or empty with a topic). */
export function explainTimeWindow(time: RecallTime, weighed: boolean): TimeWindowExplanation | undefined {
  const { window } = time;
  if (window === undefined) return undefined;
  return {
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    source: window.source,
    text: window.text,
    use: weighed ? 'weigh' : 'narrow',
    tz: time.timeZone,
  };
}

function requestWindow(request: RetrieveRequest, timeZone: string): RecallTime['window'] {
  // An open side is as far as a timestamp goes: every memory is after 1970, none after year 9999. A date's
  // whole day in a zone west of UTC ends past that (9999-12-31 in Etc/GMT+12 ends at noon in year 10000),
  // so the end is clamped to the ceiling.
  const from = request.time_from === undefined ? 0 : toBound(request.time_from, timeZone, 'start');
  const to =
    request.time_to === undefined
      ? TIME_CEILING_MS
      : Math.min(toBound(request.time_to, timeZone, 'end'), TIME_CEILING_MS);
  if (from >= to) {
    // With an open end, the bound sent is the one to fix.
    const field = request.time_to === undefined ? 'time_from' : 'time_to';
    throw new ValidationError(
      field,
      `${field === 'time_to' ? 'time_to: must be after time_from' : 'time_from: must be before the end of 9999'} (${request.time_from ?? '(open)'} to ${request.time_to ?? '(open)'} is empty); swap them or widen the window`,
    );
  }
  const text = `${request.time_from ?? ''}..${request.time_to ?? ''}`;
  return { from, to, precise: true, kind: 'range', text, source: 'request' };
}

/** A bound as Unix ms: a date is its day's start (`start`) or the next day's start (`end`, so it is whole). */
function toBound(value: string | number, timeZone: string, side: 'start' | 'end'): number {
  const date = typeof value === 'string' ? DATE.exec(value) : null;
  if (date === null) return toInstant(value);
  const day = civilDate(Number(date[1]), Number(date[2]), Number(date[3]));
  return startOfDay(side === 'start' ? day : addDays(day, 1), timeZone);
}

const toInstant = (value: string | number) => (typeof value === 'number' ? value : Date.parse(value));
