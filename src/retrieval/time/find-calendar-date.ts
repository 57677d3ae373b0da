/**
 * @module The dates and relative days chrono-node finds in a query ("yesterday", "3 days ago", "last week",
 * "on Tuesday", "in May", "on 8 May 2023", "from 1 to 8 May"), turned into whole-day windows in the asker's
 * zone. Chrono reads the words against `now` at the zone's current offset; the window's bounds are then
 * the zone's own midnights (zone-calendar), so a DST change between the two does not shift a day.
 * English first: another language is another chrono parser in PARSERS.
 */
import * as chrono from 'chrono-node';
import { dateWordUse } from './date-word-gate.js';
import type { FoundTimeExpression, TimeKind, TimeReference } from './time-window.js';
import {
  addDays,
  type CivilDate,
  civilDate,
  civilDateAt,
  compareDates,
  isWithinCalendar,
  startOfDay,
  zoneOffsetMinutes,
} from './zone-calendar.js';

/** The chrono parser per language. */
const PARSERS: Readonly<Record<string, chrono.Chrono>> = { en: chrono.en.casual };

/** The first date expression chrono finds in `text` that names a past day, week, month or year. */
export function findCalendarDate(
  text: string,
  ref: TimeReference,
  language = 'en',
): FoundTimeExpression | undefined {
  const parser = PARSERS[language] ?? PARSERS.en!;
  const results = parser.parse(text, {
    instant: new Date(ref.now),
    timezone: zoneOffsetMinutes(ref.now, ref.timeZone),
  });
  const today = civilDateAt(ref.now, ref.timeZone);
  for (const result of results) {
    const use = dateWordUse(text, result);
    if (use === 'skip') continue;
    const span = resolveSpan(result, today);
    if (span === undefined) continue;
    const [first, last, kind, spanPrecise = true] = span;
    // "100000 years ago" names no year a memory has, nor one Intl can place in a zone.
    if (!isWithinCalendar(first) || !isWithinCalendar(last)) continue;
    const precise = spanPrecise && use === 'narrow';
    // Recall is about the past: a window that has not begun yet ("next Tuesday") is not a recall window.
    if (compareDates(first, today) > 0) continue;
    return {
      from: startOfDay(first, ref.timeZone),
      to: startOfDay(addDays(last, 1), ref.timeZone),
      precise,
      kind,
      text: result.text,
      index: result.index,
      length: result.text.length,
    };
  }
  return undefined;
}

/**
 * The days named, and whether they narrow recall. A memory is dated by when it was said, so only windows
 * that name when something was said narrow: a day, a week, a month of a known year. A year ("last year",
 * "4 years ago") or a month without its year ("camping in June") more often names when it happened, which
 * may be long before it was talked about: those only weigh.
 */
type Span = [first: CivilDate, last: CivilDate, kind: TimeKind, precise?: boolean];
/** Parts of a day chrono reads alone ("the opening night"): a day only with "this", "last" or "to". */
const LONE_DAYTIME = /^(?:night|morning|evening|afternoon|noon|midnight)$/i;

const PART_OF_DAY_TAGS = ['casualReference/morning', 'casualReference/afternoon', 'casualReference/evening'];

/** The first and last day the result names, or undefined when it names no day (a time, "now"). */
function resolveSpan(result: chrono.ParsedResult, today: CivilDate): Span | undefined {
  const words = result.text.toLowerCase();
  const start = result.start;
  const tags = result.tags();
  // "now" names no day; "next Tuesday", "tomorrow" name the future, which holds no memories.
  if (tags.has('casualReference/now') || /\b(?:next|tomorrow|coming)\b/.test(words)) return undefined;
  if (LONE_DAYTIME.test(words.trim())) return undefined;
  const chronoDay = () => civilDate(start.get('year')!, start.get('month')!, start.get('day')!);
  if (result.end) {
    const end = result.end;
    // "to May" ends with May's last day: a day chrono only guessed is not where the range stops.
    const last = end.isCertain('day')
      ? civilDate(end.get('year')!, end.get('month')!, end.get('day')!)
      : addDays(civilDate(end.get('year')!, end.get('month')! + 1, 1), -1);
    return [chronoDay(), last, 'range'];
  }
  if (/\bweekend\b/.test(words)) return weekendSpan(words, today);
  if (/\bweeks?\b/.test(words)) {
    if (/\bthis\b/.test(words)) return [addDays(today, -((today.weekday + 6) % 7)), today, 'week'];
    // "last week", "2 weeks ago": the ISO week (Monday to Sunday) holding the day chrono counted back to.
    const monday = addDays(chronoDay(), -((chronoDay().weekday + 6) % 7));
    return [monday, addDays(monday, 6), 'week'];
  }
  if (/\bmonths?\b/.test(words)) {
    const month = civilDate(start.get('year')!, start.get('month')!, 1);
    return [month, addDays(civilDate(month.year, month.month + 1, 1), -1), 'month'];
  }
  if (/\byears?\b/.test(words)) {
    return [civilDate(start.get('year')!, 1, 1), civilDate(start.get('year')!, 12, 31), 'year', false];
  }
  if (/\b(?:few|couple|several)\b/.test(words)) {
    const centre = chronoDay();
    return [addDays(centre, -2), addDays(centre, 1), 'range'];
  }
  if (start.isCertain('day')) return [resolveYear(start, today), resolveYear(start, today), 'day'];
  if (start.isCertain('weekday')) {
    // "on Tuesday": the most recent Tuesday before today (today itself is "today").
    const back = (today.weekday - start.get('weekday')! + 7) % 7 || 7;
    const day = addDays(today, -back);
    return [day, day, 'day'];
  }
  // "this morning", "tonight": a part of today. With a day ("yesterday evening", "on Saturday morning") the
  // day was taken above, so a part of day never moves the day to today.
  if (PART_OF_DAY_TAGS.some((tag) => tags.has(tag)) && !start.isCertain('month'))
    return [today, today, 'day'];
  if (start.isCertain('month')) {
    const year = start.isCertain('year')
      ? start.get('year')!
      : start.get('month')! > today.month
        ? today.year - 1
        : today.year;
    const first = civilDate(year, start.get('month')!, 1);
    return [first, addDays(civilDate(year, first.month + 1, 1), -1), 'month', start.isCertain('year')];
  }
  return undefined;
}

/**
 * A day named without its year ("Sunday, 7 May"): the most recent past one, and with a weekday, the most
 * recent year in which that date falls on that weekday.
 */
function resolveYear(start: chrono.ParsedComponents, today: CivilDate): CivilDate {
  const month = start.get('month')!;
  const dayOfMonth = start.get('day')!;
  if (start.isCertain('year')) return civilDate(start.get('year')!, month, dayOfMonth);
  let year = today.year;
  if (compareDates(civilDate(year, month, dayOfMonth), today) > 0) year -= 1;
  if (start.isCertain('weekday')) {
    const weekday = start.get('weekday')!;
    for (let back = 0; back < 28; back++) {
      const candidate = civilDate(year - back, month, dayOfMonth);
      if (candidate.weekday === weekday) return candidate;
    }
  }
  return civilDate(year, month, dayOfMonth);
}

/**
 * "over the weekend", "last weekend": Saturday and Sunday of the latest weekend that has begun ("last" on a
 * weekend day: the one before). "this weekend" asked Monday to Friday is ahead: no window.
 */
function weekendSpan(words: string, today: CivilDate): Span | undefined {
  const inWeekend = today.weekday === 6 || today.weekday === 0;
  if (/\bthis\b/.test(words) && !inWeekend) return undefined;
  let back = (today.weekday + 1) % 7;
  if (/\b(?:last|past|previous)\b/.test(words) && inWeekend) back += 7;
  const saturday = addDays(today, -back);
  return [saturday, addDays(saturday, 1), 'range'];
}
