/**
 * @module A SillyTavern message's `send_date` as Unix ms, read as st-qdrant-memory's "index chats" reads it, so
 * the message ids it derives from it (`<character>_<ms>_<index>`) come out the same.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "June 19, 2023 2:20pm": SillyTavern's message dates before ISO strings, in local time. */
const MERIDIEM = /(\w+)\s(\d{1,2}),\s(\d{4})\s(\d{1,2}):(\d{1,2})(am|pm)/i;
/** "2024-07-12@01h31m37s123ms", "2024-7-12@01h31m37s", "2024-6-5 @14h 56m 50s 682ms": SillyTavern reads them as UTC. */
const HUMANIZED = [
  /(\d{4})-(\d{1,2})-(\d{1,2})@(\d{1,2})h(\d{1,2})m(\d{1,2})s(\d{1,3})ms/,
  /(\d{4})-(\d{1,2})-(\d{1,2})@(\d{1,2})h(\d{1,2})m(\d{1,2})s/,
  /(\d{4})-(\d{1,2})-(\d{1,2}) @(\d{1,2})h (\d{1,2})m (\d{1,2})s (\d{1,3})ms/,
];

/**
 * The extension's rule first: a number above 1e12 is ms, between 1e9 and 1e12 seconds (× 1000), a string goes
 * through `new Date(string)` (local time when it names no zone, as in the browser). Where that fails the
 * extension falls back to the current time, which no later run can reproduce and which would date old history
 * today; here SillyTavern's own legacy formats are read instead (digits are a Unix time by the number rule).
 * Undefined when nothing reads it: the caller refuses the line.
 */
export function parseSendDate(value: unknown): number | undefined {
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = new Date(value).getTime();
  if (!Number.isNaN(parsed)) return parsed;
  if (/^\d+$/.test(value.trim())) return fromNumber(Number(value.trim()));
  return parseLegacyDate(value);
}

function fromNumber(value: number): number | undefined {
  if (value > 1e12) return value;
  if (value > 1e9 && value < 1e12) return value * 1000;
  return undefined;
}

function parseLegacyDate(value: string): number | undefined {
  const meridiem = MERIDIEM.exec(value);
  if (meridiem) {
    const [, monthName, day, year, hour, minute, half] = meridiem as unknown as string[];
    const month = MONTHS.indexOf(monthName!.slice(0, 3).toLowerCase());
    if (month < 0) return undefined;
    const hour24 = (Number(hour) % 12) + (half!.toLowerCase() === 'pm' ? 12 : 0);
    return new Date(Number(year), month, Number(day), hour24, Number(minute)).getTime();
  }
  for (const pattern of HUMANIZED) {
    const match = pattern.exec(value);
    if (!match) continue;
    const [year, month, day, hour, minute, second, ms = 0] = match.slice(1).map(Number);
    return Date.UTC(year!, month! - 1, day, hour, minute, second, ms);
  }
  return undefined;
}
