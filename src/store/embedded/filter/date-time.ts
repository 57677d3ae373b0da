/** @module Qdrant's datetime payload format: the strings `DateTimePayloadType::from_str` accepts, as epoch microseconds. */

// One pattern covers every accepted form (types.rs::DateTimePayloadType::from_str):
// RFC 3339 and chrono's relaxed form ([Tt ] separator, optional space before the zone), `%#z` zones
// (±HH, ±HHMM, ±HH:MM), zone-less `…HH:MM:SS[.f]` and `…HH:MM` (UTC), and a bare date.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?(?: *(Z|z|[+-]\d{2}(?::?\d{2})?))?)?)?$/;

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

function parseOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

/** Parses a Qdrant datetime string to epoch microseconds (UTC when no zone); undefined when it does not parse. */
export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  // Second 60 is a leap second, which chrono accepts and counts into the next second.
  if (day > monthDays || hour > 23 || minute > 59 || second > 60) return undefined;
  const offset = parseOffsetMinutes(m[8]);
  if (offset === undefined) return undefined;
  // Precision is microseconds: extra fraction digits are truncated, as chrono's timestamp_micros does.
  const micros = m[7] === undefined ? 0 : Number(m[7].slice(0, 6).padEnd(6, '0'));
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + (minute - offset) * 60 + second;
  return seconds * 1_000_000 + micros;
}
