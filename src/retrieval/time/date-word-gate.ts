/**
 * @module Whether a date chrono found in a query names a time at all, and whether it may narrow recall.
 * Chat messages are sent as queries, and chrono reads dates into ordinary words ("Sat down", "Black
 * Friday", "Did June like it?", "in a second", "24/7"); a query naming no time must answer as before.
 */
import type * as chrono from 'chrono-node';

/** `skip`: not a time; `weigh`: a time that only reorders recall; `narrow`: a time recall may narrow to. */
export type DateWordUse = 'skip' | 'weigh' | 'narrow';

/** Words that lead a date ("on Friday", "since May", "last Sunday"): with them a word is meant as a date. */
const LEAD_BEFORE =
  /\b(?:on|in|during|since|from|of|last|this|past|previous|until|till|by|before|after|early|late|mid|between)\s*$/i;
const LEAD_INSIDE =
  /^(?:on|in|during|since|from|of|last|this|past|previous|until|till|by|before|after|early|late|mid)\b/i;
const WEEKDAY = '(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?|wednesday|tuesday|thursday|saturday';
const MONTH =
  '(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\\.?|january|february|march|april|may|june|july|august|september|october|november|december';
const PART_OF_DAY = /\b(?:morning|afternoon|evening|night|noon|midnight)\b/gi;
/** A result that is a weekday or a month word alone (a part of day aside): a name, a verb, or a date. */
const LONE_WEEKDAY = new RegExp(`^(?:${WEEKDAY})$`, 'i');
const LONE_MONTH = new RegExp(`^(?:${MONTH})$`, 'i');
/** Units shorter than a day: "in a second", "five minutes ago" name no day. */
const SUB_DAY = /\b(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)\b/i;
/** A slash date without a year ("24/7", "3/4", "9/11"): more often a phrase or a ratio than a day. */
const YEARLESS_SLASH = /^\d{1,2}\/\d{1,2}$/;

/** How `result` (found in `text`) may be used; capitals never make a word a date. */
export function dateWordUse(text: string, result: chrono.ParsedResult): DateWordUse {
  const words = result.text.trim();
  if (SUB_DAY.test(words)) return 'skip';
  const led = LEAD_BEFORE.test(text.slice(0, result.index)) || LEAD_INSIDE.test(words);
  // A yearless slash date is a day only when led ("on 3/4"), and even then only weighs: "on 9/11" is as
  // often the event as the day.
  if (YEARLESS_SLASH.test(words)) return led ? 'weigh' : 'skip';
  const bare = words
    .replace(PART_OF_DAY, ' ')
    .replace(/[\s,.]+/g, ' ')
    .trim();
  if (LONE_MONTH.test(bare)) return led ? 'narrow' : 'skip';
  if (LONE_WEEKDAY.test(bare)) {
    if (led) return 'narrow';
    // "Friday" alone may still mean last Friday, but "Sat", "Sun", "Mon", "Wed" are words first.
    return /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)$/i.test(bare) ? 'skip' : 'weigh';
  }
  return 'narrow';
}
