/**
 * @module Reads the time a recall query names ("what did we talk about yesterday?") into a window, and the
 * query without those words: they are not content, so "yesterday" must not pull in every chunk that says
 * "yesterday", nor steer the query's embedding.
 */
import { findCalendarDate } from './find-calendar-date.js';
import { findNamedPeriod } from './named-periods.js';
import type { TimeReference, TimeWindow } from './time-window.js';

export interface TimeQuery {
  /** The window the query names; undefined when it names none. */
  readonly window?: TimeWindow;
  /** The query without the words that named the window (the query itself when none did). */
  readonly contentText: string;
}

/** Prepositions left dangling once the date they led is taken out ("planned in May" → "planned"). */
const DANGLING = /\b(?:in|on|during|over|from|since|at|of)\s*$/i;

/**
 * Times that as often name a plan as the past ("See you on Friday!", "free this weekend?", "cook tonight",
 * "this summer"): they narrow recall only when the query looks back (a past tense, an asking word).
 */
const PLAN_LIKE =
  /^(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day(?:\s+(?:morning|afternoon|evening|night))?$|^this\s+(?:weekend|spring|summer|autumn|fall|winter)$|^tonight$/i;
const LOOKS_BACK =
  /\b(?:did|was|were|had|been|said|told|spoke|went|saw|met|ago|remember|recall|talk|discuss|mention|happen|\w{2,}ed)\b/i;

/**
 * How much of a query is read for its time: about what the model embeds of it (its first windows, 512 USE-lite
 * tokens, ~1,800 characters of chat). Chrono's cost grows with the text (~15 ms of the service's thread for 20 kB,
 * which every query asked meanwhile waits behind), and the first expression is the one taken anyway: a
 * query whose first time starts further on is a pasted text or a long chat, not a question about a day.
 */
export const TIME_SCAN_CHARS = 2_000;
/** Read past the opening, so an expression starting in it is read whole ("on 8 May | 2023" is not 8 May). */
const SCAN_MARGIN_CHARS = 200;

/** `text` up to the opening and its margin, cut at a space so no word is cut in two. */
function readScanned(text: string): string {
  const end = TIME_SCAN_CHARS + SCAN_MARGIN_CHARS;
  if (text.length <= end) return text;
  const cut = text.lastIndexOf(' ', end);
  return text.slice(0, cut > TIME_SCAN_CHARS ? cut : end);
}

/**
 * The first time expression in `text` that starts within its first TIME_SCAN_CHARS, resolved against `ref`,
 * and the text without it.
 */
export function parseTimeQuery(text: string, ref: TimeReference, language = 'en'): TimeQuery {
  const scanned = readScanned(text);
  const found = [findCalendarDate(scanned, ref, language), findNamedPeriod(scanned, ref)]
    .filter((f) => f !== undefined)
    .sort((a, b) => a.index - b.index)[0];
  if (found === undefined || found.index >= TIME_SCAN_CHARS) return { contentText: text };
  const before = text.slice(0, found.index).replace(DANGLING, '');
  const after = text.slice(found.index + found.length);
  const contentText = `${before} ${after}`.replace(/\s+/g, ' ').trim();
  const { index: _index, length: _length, ...named } = found;
  const plan = PLAN_LIKE.test(found.text.trim()) && !LOOKS_BACK.test(text);
  const window = plan ? { ...named, precise: false } : named;
  return { window, contentText };
}
