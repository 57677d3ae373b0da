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

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's wall clock at `instant` read as if it were UTC, in ms (so minus `instant` is the offset). */
function wallClockMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
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
  return toCivil(Date.UTC(date.year, date.month - 1, date.day + days));
}

/** The civil date of `year`, `month` (1-12, may overflow), `day`. */
export function civilDate(year: number, month: number, day: number): CivilDate {
  return toCivil(Date.UTC(year, month - 1, day));
}

/**
 * The instant `date` starts in `timeZone`: its local midnight, or, where a DST change skips midnight, the
 * first instant of that day.
 */
export function startOfDay(date: CivilDate, timeZone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day);
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
  return Date.UTC(a.year, a.month - 1, a.day) - Date.UTC(b.year, b.month - 1, b.day);
}

function toCivil(utcMs: number): CivilDate {
  const d = new Date(utcMs);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
  };
}
