/** @module Dates, counts and chunk text as the page shows them. Days are UTC, as the chunk header's date is. */

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

export const dayKey = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const formatDay = (ms: number): string => dayFormat.format(new Date(ms));
export const formatTime = (ms: number): string => `${timeFormat.format(new Date(ms))} UTC`;

/** A point that may have no date (another writer left none): the service says so, or sends 0. */
interface Dated {
  readonly timestamp: number;
  readonly undated?: true;
}
const hasDate = (point: Dated): boolean => point.undated !== true && point.timestamp > 0;
const NO_DATE = 'No date';
/** The day heading a point goes under; undated points share one, after all the days. */
export const pointDayKey = (point: Dated): string => (hasDate(point) ? dayKey(point.timestamp) : 'undated');
export const pointDay = (point: Dated): string => (hasDate(point) ? formatDay(point.timestamp) : NO_DATE);
export const pointTime = (point: Dated): string => (hasDate(point) ? formatTime(point.timestamp) : 'no date');
export const formatCount = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** How long ago, roughly ("3 min", "2 h", "5 days"). */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 129_600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** One line of chunk text: the speaker (when the line starts with one of the chunk's speakers) and the words. */
export interface ChunkLine {
  readonly speaker: string | undefined;
  readonly text: string;
}

/** Splits chunk text into lines, dropping the `[YYYY-MM-DD]` header (the day heading shows it). */
export function splitChunkText(text: string, speakers: string): ChunkLine[] {
  const names = speakers
    .split(', ')
    .map((name) => name.trim())
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  return text
    .split('\n')
    .filter((line, index) => !(index === 0 && /^\[\d{4}-\d{2}-\d{2}\]$/.test(line.trim())))
    .map((line) => {
      const speaker = names.find((name) => line.startsWith(`${name}: `));
      return speaker === undefined
        ? { speaker: undefined, text: line }
        : { speaker, text: line.slice(speaker.length + 2) };
    });
}
