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

/** The first time expression in `text`, resolved against `ref`, and the text without it. */
export function parseTimeQuery(text: string, ref: TimeReference, language = 'en'): TimeQuery {
  const found = [findCalendarDate(text, ref, language), findNamedPeriod(text, ref)]
    .filter((f) => f !== undefined)
    .sort((a, b) => a.index - b.index)[0];
  if (found === undefined) return { contentText: text };
  const before = text.slice(0, found.index).replace(DANGLING, '');
  const after = text.slice(found.index + found.length);
  const contentText = `${before} ${after}`.replace(/\s+/g, ' ').trim();
  const { index: _index, length: _length, ...named } = found;
  const plan = PLAN_LIKE.test(found.text.trim()) && !LOOKS_BACK.test(text);
  const window = plan ? { ...named, precise: false } : named;
  return { window, contentText };
}
