/**
 * @module The time phrases chrono does not resolve, matched here: seasons ("last summer"), the winter
 * holidays ("over the holidays") and vague phrases ("a while ago", "recently") that only weigh recall.
 * Seasons are meteorological (whole months); the hemisphere is northern unless the zone is a southern one.
 */

import type { FoundTimeExpression, TimeReference } from './time-window.js';
import {
  addDays,
  type CivilDate,
  civilDate,
  civilDateAt,
  compareDates,
  isWithinCalendar,
  startOfDay,
} from './zone-calendar.js';

const DAY_MS = 86_400_000;
/** Zones south of the equator whose summer is December to February (a prefix or an exact name). */
const SOUTHERN_ZONES = [
  'Australia/',
  'Antarctica/',
  'America/Argentina/',
  'America/Buenos_Aires',
  'America/Santiago',
  'America/Montevideo',
  'America/Sao_Paulo',
  'America/Asuncion',
  'America/La_Paz',
  'America/Lima',
  'Africa/Johannesburg',
  'Africa/Maputo',
  'Africa/Windhoek',
  'Africa/Harare',
  'Africa/Lusaka',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Fiji',
  'Indian/Mauritius',
  'Indian/Reunion',
];
/** The first month of each season in the northern hemisphere. */
const SEASON_START: Record<string, number> = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 };

const SEASON =
  /\b(?:(last|this|past|previous)\s+|(?:in|during|over)\s+the\s+)(spring|summer|autumn|fall|winter)(?:\s+of\s+(\d{4}))?\b|\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?(\d{4})\b/i;
const HOLIDAYS =
  /\b(?:over|during|at|for|in)\s+(?:the\s+)?(?:christmas\s+)?(?:holidays|holiday season|christmas)\b/i;
const VAGUE: readonly [RegExp, number, number][] = [
  // [pattern, from days ago, to days ago]
  [/\b(?:a\s+)?(?:little\s+)?while\s+(?:ago|back)\b/i, 365, 7],
  [/\b(?:a\s+)?long\s+(?:time\s+)?ago\b|\bages\s+ago\b/i, 3650, 90],
  [/\brecently\b|\blately\b|\bthe\s+other\s+day\b/i, 14, 0],
];

/** Whether `timeZone` is one whose seasons are the southern hemisphere's. */
export function isSouthernZone(timeZone: string): boolean {
  return SOUTHERN_ZONES.some((zone) => (zone.endsWith('/') ? timeZone.startsWith(zone) : timeZone === zone));
}

/** The first season, holidays or vague phrase in `text`, resolved against `ref`. */
export function findNamedPeriod(text: string, ref: TimeReference): FoundTimeExpression | undefined {
  const today = civilDateAt(ref.now, ref.timeZone);
  const found = [matchSeason(text, today, ref), matchHolidays(text, today, ref), ...matchVague(text, ref)];
  return found.filter((f) => f !== undefined).sort((a, b) => a!.index - b!.index)[0];
}

function matchSeason(text: string, today: CivilDate, ref: TimeReference): FoundTimeExpression | undefined {
  const m = SEASON.exec(text);
  if (!m) return undefined;
  const name = (m[2] ?? m[4])!.toLowerCase();
  // "hurt in the fall" is a tumble: "fall" names the season only with "last"/"this" or a year.
  if (name === 'fall' && m[1] === undefined && (m[3] ?? m[5]) === undefined) return undefined;
  const shift = isSouthernZone(ref.timeZone) ? 6 : 0;
  const startMonth = ((SEASON_START[name]! + shift - 1) % 12) + 1;
  const yearGiven = m[3] ?? m[5];
  let start: CivilDate;
  if (yearGiven !== undefined) {
    start = civilDate(Number(yearGiven), startMonth, 1);
  } else {
    // The most recent season of that name that has started; "last" wants one that has also ended.
    start = civilDate(today.year, startMonth, 1);
    if (compareDates(start, today) > 0) start = civilDate(today.year - 1, startMonth, 1);
    const ended = compareDates(civilDate(start.year, start.month + 3, 1), today) <= 0;
    if (/last|past|previous/i.test(m[1] ?? '') && !ended) start = civilDate(start.year - 1, startMonth, 1);
  }
  const end = civilDate(start.year, start.month + 3, 1);
  // "summer 0000" names no year of the calendar.
  if (!isWithinCalendar(start) || !isWithinCalendar(end)) return undefined;
  // "last summer", "summer 2023" name which one; "during the summer" leaves the year a guess: it weighs.
  const anchored = yearGiven !== undefined || m[1] !== undefined;
  return window(m, 'season', anchored, startOfDay(start, ref.timeZone), startOfDay(end, ref.timeZone));
}

function matchHolidays(text: string, today: CivilDate, ref: TimeReference): FoundTimeExpression | undefined {
  const m = HOLIDAYS.exec(text);
  if (!m) return undefined;
  // The Christmas and New Year holidays: 20 December to 6 January, the most recent that has begun.
  let start = civilDate(today.year, 12, 20);
  if (compareDates(start, today) > 0) start = civilDate(today.year - 1, 12, 20);
  const end = addDays(civilDate(start.year + 1, 1, 6), 1);
  return window(m, 'holidays', true, startOfDay(start, ref.timeZone), startOfDay(end, ref.timeZone));
}

function matchVague(text: string, ref: TimeReference): (FoundTimeExpression | undefined)[] {
  return VAGUE.map(([pattern, fromDays, toDays]) => {
    const m = pattern.exec(text);
    return m ? window(m, 'vague', false, ref.now - fromDays * DAY_MS, ref.now - toDays * DAY_MS) : undefined;
  });
}

function window(
  m: RegExpExecArray,
  kind: FoundTimeExpression['kind'],
  precise: boolean,
  from: number,
  to: number,
): FoundTimeExpression {
  return { from, to, precise, kind, text: m[0], index: m.index, length: m[0].length };
}
