/** @module Qdrant's datetime payload format: the strings `DateTimePayloadType::from_str` accepts, as epoch microseconds. */

// The accepted forms (types.rs::DateTimePayloadType::from_str): RFC 3339 and chrono's relaxed form
// ([Tt ] separator, spaces before the zone), `%#z` zones (±HH, ±HHMM, ±HH:MM), zone-less
// `…HH:MM:SS[.f]` and `…HH:MM` (UTC), and a bare date. Parsed by hand rather than with a regex:
// range filters parse every payload string of every point they check.
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

// Howard Hinnant's days_from_civil: avoids Date.UTC, which maps years 0–99 to 1900–1999.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const ZERO = 48;

/** Two ASCII digits at `at` as a number, or -1. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - ZERO;
  const b = text.charCodeAt(at + 1) - ZERO;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

interface Clock {
  hour: number;
  minute: number;
  second: number;
  micros: number;
  offsetMinutes: number;
}

/** The part after the date's separator: `HH:MM`, or `HH:MM:SS[.f][ *zone]`. False when malformed. */
function parseClock(text: string, at: number, out: Clock): boolean {
  out.hour = twoDigits(text, at);
  out.minute = text[at + 2] === ':' ? twoDigits(text, at + 3) : -1;
  if (out.hour < 0 || out.minute < 0) return false;
  let i = at + 5;
  if (i === text.length) return true;
  out.second = text[i] === ':' ? twoDigits(text, i + 1) : -1;
  if (out.second < 0) return false;
  i += 3;
  if (text[i] === '.') {
    // Precision is microseconds: extra fraction digits are truncated, as chrono's timestamp_micros does.
    let digits = 0;
    for (i++; i < text.length; i++, digits++) {
      const d = text.charCodeAt(i) - ZERO;
      if (d < 0 || d > 9) break;
      if (digits < 6) out.micros = out.micros * 10 + d;
    }
    if (digits === 0) return false;
    for (let k = digits; k < 6; k++) out.micros *= 10;
  }
  if (i === text.length) return true;
  while (text[i] === ' ') i++;
  const sign = text[i];
  if ((sign === 'Z' || sign === 'z') && i + 1 === text.length) return true;
  if (sign !== '+' && sign !== '-') return false;
  const zoneHours = twoDigits(text, i + 1);
  let zoneMinutes = 0;
  i += 3;
  if (i < text.length) {
    if (text[i] === ':') i++;
    zoneMinutes = twoDigits(text, i);
    i += 2;
  }
  if (zoneHours < 0 || zoneHours > 23 || zoneMinutes < 0 || zoneMinutes > 59 || i !== text.length)
    return false;
  out.offsetMinutes = (sign === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  return true;
}

/** Parses a Qdrant datetime string to epoch microseconds (UTC when no zone); undefined when it does not parse. */
export function parseDateTime(text: string): number | undefined {
  const y1 = twoDigits(text, 0);
  const y2 = twoDigits(text, 2);
  if (y1 < 0 || y2 < 0 || text[4] !== '-' || text[7] !== '-') return undefined;
  const year = y1 * 100 + y2;
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day > monthDays) return undefined;
  const clock: Clock = { hour: 0, minute: 0, second: 0, micros: 0, offsetMinutes: 0 };
  if (text.length !== 10) {
    const separator = text[10];
    if (separator !== 'T' && separator !== 't' && separator !== ' ') return undefined;
    if (!parseClock(text, 11, clock)) return undefined;
  }
  const { hour, minute, second, micros, offsetMinutes } = clock;
  // Second 60 is a leap second, which chrono accepts and counts into the next second.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const seconds =
    daysFromCivil(year, month, day) * 86400 + hour * 3600 + (minute - offsetMinutes) * 60 + second;
  return seconds * 1_000_000 + micros;
}
