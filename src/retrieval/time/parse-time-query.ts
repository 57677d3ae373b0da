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

/** The first time expression in `text`, resolved against `ref`, and the text without it. */
export function parseTimeQuery(text: string, ref: TimeReference, language = 'en'): TimeQuery {
  const found = [findCalendarDate(text, ref, language), findNamedPeriod(text, ref)]
    .filter((f) => f !== undefined)
    .sort((a, b) => a.index - b.index)[0];
  if (found === undefined) return { contentText: text };
  const before = text.slice(0, found.index).replace(DANGLING, '');
  const after = text.slice(found.index + found.length);
  const contentText = `${before} ${after}`.replace(/\s+/g, ' ').trim();
  const { index: _index, length: _length, ...window } = found;
  return { window, contentText };
}
