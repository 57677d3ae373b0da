/**
 * @module The viewer's filter (the page keeps it in its URL): parsed once from query parameters, with a 400
 * naming the parameter, and turned into the store's payload filter.
 */
import { ValidationError } from '../errors/memory-pool-error.js';
import type { StoreCondition, StoreFilter } from '../store/point-store.js';
import {
  combineConditions,
  inRange,
  joinFilters,
  matchText,
  matchValue,
  withoutSource,
} from '../store/store-filters.js';
import { TIMELINE_KEY } from '../store/timeline-index.js';
import { isCleanText, NOT_CLEAN_TEXT } from '../wire/clean-text.js';

/** Which points a timeline, a count or a bulk forget covers. Every field narrows. */
export interface TimelineFilter {
  readonly source?: string;
  /** `sillytavern`: points without a source; `memory-pool`: points with one. */
  readonly kind?: 'sillytavern' | 'memory-pool';
  /** A speaker's name, or part of it. */
  readonly speaker?: string;
  /** Words the chunk text holds (a substring, as Qdrant matches text on a field without a full-text index). */
  readonly text?: string;
  readonly channelId?: string;
  readonly guildId?: string;
  /** `only`: direct messages only; `exclude`: no direct messages. */
  readonly dm?: 'only' | 'exclude';
  /** `only`: points without a numeric timestamp (the timeline shows them last); `exclude`: dated points only. */
  readonly undated?: 'only' | 'exclude';
  /** Unix ms, inclusive: the start of the `from` day (UTC). */
  readonly fromMs?: number;
  /** Unix ms, exclusive: the end of the `to` day (UTC). */
  readonly toMs?: number;
  /** A person of the bot (their id): points where they speak, as `/retrieve { person }` selects them. */
  readonly person?: string;
  /**
   * The store's filter for `person` (the names they speak under), which needs the journal: the viewer's backend
   * sets it (withPersonSpeakers) before any read, and toStoreFilter refuses a `person` without it.
   */
  readonly personSpeakers?: StoreFilter;
}

const DAY_MS = 86_400_000;
const MAX_TEXT = 200;

/** A text parameter, trimmed unless `exact` (a source is matched as written, spaces at either end included). */
function readText(params: URLSearchParams, name: string, exact = false): string | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = exact ? raw : raw.trim();
  if (value.length > MAX_TEXT) {
    throw new ValidationError(name, `${name}: at most ${MAX_TEXT} characters, got ${value.length}`);
  }
  return value;
}

function readChoice<T extends string>(
  params: URLSearchParams,
  name: string,
  choices: readonly T[],
): T | undefined {
  const value = readText(params, name);
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new ValidationError(name, `${name}: expected one of ${choices.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** A `YYYY-MM-DD` day as the Unix ms of its start (UTC). */
function readDay(params: URLSearchParams, name: string): number | undefined {
  const value = readText(params, name);
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to 2 March: only a day that reads back the same is real.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw new ValidationError(name, `${name}: expected a day as YYYY-MM-DD, got "${value}"`);
  return ms;
}

/** A person id as `/retrieve` takes it: well-formed text (Postgres refuses a NUL). */
function readPerson(params: URLSearchParams): string | undefined {
  const person = readText(params, 'person');
  if (person !== undefined && !isCleanText(person))
    throw new ValidationError('person', `person: ${NOT_CLEAN_TEXT}`);
  return person;
}

/**
 * Reads the filter from query parameters: source, kind, speaker, text, channel_id, guild_id, dm, undated, from,
 * to, person.
 */
export function parseTimelineFilter(params: URLSearchParams): TimelineFilter {
  const source = readText(params, 'source', true);
  const kind = readChoice(params, 'kind', ['sillytavern', 'memory-pool'] as const);
  if (source !== undefined && kind === 'sillytavern') {
    throw new ValidationError('kind', 'kind: SillyTavern points have no source; drop either source or kind');
  }
  const speaker = readText(params, 'speaker');
  const text = readText(params, 'text');
  const channelId = readText(params, 'channel_id');
  const guildId = readText(params, 'guild_id');
  const dm = readChoice(params, 'dm', ['only', 'exclude'] as const);
  const undated = readChoice(params, 'undated', ['only', 'exclude'] as const);
  const fromMs = readDay(params, 'from');
  const to = readDay(params, 'to');
  const person = readPerson(params);
  const toMs = to === undefined ? undefined : to + DAY_MS;
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) {
    throw new ValidationError('to', 'to: the last day must not be before from');
  }
  if (undated === 'only' && (fromMs !== undefined || toMs !== undefined)) {
    throw new ValidationError(
      'undated',
      'undated: undated points have no day; drop either undated or from/to',
    );
  }
  return {
    ...(source === undefined ? {} : { source }),
    ...(kind === undefined ? {} : { kind }),
    ...(speaker === undefined ? {} : { speaker }),
    ...(text === undefined ? {} : { text }),
    ...(channelId === undefined ? {} : { channelId }),
    ...(guildId === undefined ? {} : { guildId }),
    ...(dm === undefined ? {} : { dm }),
    ...(undated === undefined ? {} : { undated }),
    ...(fromMs === undefined ? {} : { fromMs }),
    ...(toMs === undefined ? {} : { toMs }),
    ...(person === undefined ? {} : { person }),
  };
}

/**
 * Points with a number at `timestamp`: what the timeline's float index holds and `order_by` reaches (a range
 * condition matches integers and floats alike, and nothing else).
 */
export const DATED: StoreCondition = inRange(TIMELINE_KEY, { gte: -Number.MAX_VALUE });

/** Points whose timestamp is exactly `ms`, or (`lt`) below it. */
export const timestampIs = (ms: number): StoreCondition => inRange(TIMELINE_KEY, { gte: ms, lte: ms });
export const timestampBelow = (ms: number): StoreCondition => inRange(TIMELINE_KEY, { lt: ms });

/** The store's payload filter for `filter`, narrowed by `extra` too; undefined when nothing narrows. */
export function toStoreFilter(filter: TimelineFilter, extra?: StoreFilter): StoreFilter | undefined {
  // A person read as "no filter" would show (and a bulk forget would take) everyone's points.
  if (filter.person !== undefined && filter.personSpeakers === undefined) {
    throw new Error('a timeline filter by person reached the store before its names were read');
  }
  const must: StoreCondition[] = [];
  const mustNot: StoreCondition[] = [];
  const isDm = matchValue('isDm', true);
  if (filter.source !== undefined) must.push(matchValue('source', filter.source));
  if (filter.kind === 'sillytavern') must.push(withoutSource());
  if (filter.kind === 'memory-pool') mustNot.push(withoutSource());
  if (filter.speaker !== undefined) must.push(matchText('speakers', filter.speaker));
  if (filter.text !== undefined) must.push(matchText('text', filter.text));
  if (filter.channelId !== undefined) must.push(matchValue('channelId', filter.channelId));
  if (filter.guildId !== undefined) must.push(matchValue('guildId', filter.guildId));
  if (filter.dm === 'only') must.push(isDm);
  if (filter.dm === 'exclude') mustNot.push(isDm);
  if (filter.undated === 'only') mustNot.push(DATED);
  if (filter.undated === 'exclude') must.push(DATED);
  if (filter.fromMs !== undefined || filter.toMs !== undefined) {
    must.push(
      inRange(TIMELINE_KEY, {
        ...(filter.fromMs === undefined ? {} : { gte: filter.fromMs }),
        ...(filter.toMs === undefined ? {} : { lt: filter.toMs }),
      }),
    );
  }
  return joinFilters(extra, filter.personSpeakers, combineConditions(must, mustNot));
}
