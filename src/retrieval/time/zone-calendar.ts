/**
 * @module Calendar arithmetic in an IANA zone with Node's Intl only: the civil date of an instant, and the
 * instant a civil day starts. Days are computed on civil dates and turned into instants last, so a window
 * stays midnight to midnight across a DST change (a 23- or 25-hour day).
 */

/** A civil date: `month` 1-12, `weekday` 0 = Sunday. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
}

/**
 * The years a recall window may fall in: ISO 8601's four-digit years of the common era, as the wire's
 * bounds. Outside them a date is no window ("100000 years ago"): before year 1 Intl writes the year with
 * an era, and past ±275,760 years there is no JavaScript Date at all.
 */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/** Whether `date` is a real date within the years a window may fall in (not NaN, not year 0 or 10000+). */
export function isWithinCalendar(date: CivilDate): boolean {
  return date.year >= FIRST_YEAR && date.year <= LAST_YEAR;
}

/** One formatter per canonical zone (Intl's resolved name): about 420, however many spellings arrive. */
const formatters = new Map<string, Intl.DateTimeFormat>();
/**
 * The canonical zone of each spelling seen (`eUrOpe/pAris` → `Europe/Paris`), so a spelling costs one
 * formatter (~0.35 ms) only once. Zone names are case-insensitive, so the spellings are endless: the
 * map is emptied when full.
 */
const canonicalZones = new Map<string, string>();
const MAX_SPELLINGS = 2000;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  const known = canonicalZones.get(timeZone);
  const cached = known === undefined ? undefined : formatters.get(known);
  if (cached !== undefined) return cached;
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    era: 'short',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const canonical = formatter.resolvedOptions().timeZone;
  if (canonicalZones.size >= MAX_SPELLINGS) canonicalZones.clear();
  canonicalZones.set(timeZone, canonical);
  const shared = formatters.get(canonical);
  if (shared !== undefined) return shared;
  formatters.set(canonical, formatter);
  return formatter;
}

/** How many formatters and zone spellings are cached (a test holds them bounded). */
export function countCachedZones(): { formatters: number; spellings: number } {
  return { formatters: formatters.size, spellings: canonicalZones.size };
}

/** The zone's wall clock at `instant` read as if it were UTC, in ms (so minus `instant` is the offset). */
function wallClockMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  let beforeCommonEra = false;
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type === 'era') beforeCommonEra = part.value === 'BC';
    else if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  // Intl counts years before 1 as "1 BC", "2 BC": the proleptic calendar's 0, -1.
  const year = beforeCommonEra ? 1 - parts.year! : parts.year!;
  return utcMs(year, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** Date.UTC without its two-digit rule (it reads year 50 as 1950). */
function utcMs(year: number, month0: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month0, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** The zone's offset from UTC at `instant`, in minutes (Tokyo +540, New York -300 or -240). */
export function zoneOffsetMinutes(instant: number, timeZone: string): number {
  return Math.round((wallClockMs(instant, timeZone) - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The civil date in `timeZone` at `instant`. */
export function civilDateAt(instant: number, timeZone: string): CivilDate {
  return toCivil(wallClockMs(instant, timeZone));
}

/** The civil date `days` after (or before) `date`; months and years roll over as the calendar does. */
export function addDays(date: CivilDate, days: number): CivilDate {
  return toCivil(utcMs(date.year, date.month - 1, date.day + days));
}

/** The civil date of `year`, `month` (1-12, may overflow), `day`. */
export function civilDate(year: number, month: number, day: number): CivilDate {
  return toCivil(utcMs(year, month - 1, day));
}

/**
 * The instant `date` starts in `timeZone`: its local midnight, or, where a DST change skips midnight, the
 * first instant of that day.
 */
export function startOfDay(date: CivilDate, timeZone: string): number {
  const wall = utcMs(date.year, date.month - 1, date.day);
  // Two rounds settle the offset: the first guess may sit on the other side of a DST change.
  let instant = wall - zoneOffsetMinutes(wall, timeZone) * 60_000;
  instant = wall - zoneOffsetMinutes(instant, timeZone) * 60_000;
  // In a gap (the clock jumps over midnight) the guess lands on the previous day: its day starts later.
  const landed = civilDateAt(instant, timeZone);
  if (compareDates(landed, date) < 0) return instant + 3_600_000;
  return instant;
}

/** Negative when `a` is before `b`, 0 on the same day. */
export function compareDates(a: CivilDate, b: CivilDate): number {
  return utcMs(a.year, a.month - 1, a.day) - utcMs(b.year, b.month - 1, b.day);
}

function toCivil(ms: number): CivilDate {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
  };
}
