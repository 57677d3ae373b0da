/**
 * @module Where the next timeline page starts. Bounded, however many points share a timestamp: Qdrant pages
 * an `order_by` scroll by value, not by offset, so a group of equal timestamps is read by id instead (the
 * plain scroll's offset), and the cursor holds one timestamp and one point id at most.
 */
import { ValidationError } from '../errors/memory-pool-error.js';
import type { StoredPointId } from '../store/point-store.js';

/** A place in the timeline: dated points newest first, then the undated ones (or all in storage order). */
export type TimelinePosition =
  /** The points at exactly `timestamp`, by id from `offset` (inclusive; the group's start when undefined). */
  | { readonly phase: 'tie'; readonly timestamp: number; readonly offset?: StoredPointId }
  /** Dated points older than `timestamp` (every dated point when undefined), newest first. */
  | { readonly phase: 'older'; readonly timestamp?: number }
  /** Points without a numeric timestamp, by id from `offset`. */
  | { readonly phase: 'undated'; readonly offset?: StoredPointId }
  /** Every point by id from `offset`: the order when the store has no timestamp index to order by. */
  | { readonly phase: 'storage'; readonly offset?: StoredPointId };

const TAGS = { tie: 't', older: 'o', undated: 'u', storage: 's' } as const;

export function encodeCursor(position: TimelinePosition): string {
  const fields =
    position.phase === 'tie'
      ? [TAGS.tie, position.timestamp, position.offset ?? null]
      : position.phase === 'older'
        ? [TAGS.older, position.timestamp ?? null]
        : [TAGS[position.phase], position.offset ?? null];
  return Buffer.from(JSON.stringify(fields)).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A point id as Qdrant takes it: an unsigned safe integer or a UUID (anything else makes Qdrant fail). */
const isId = (value: unknown): value is StoredPointId =>
  (typeof value === 'string' && UUID.test(value)) ||
  (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);

const isTimestamp = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function readPosition(fields: unknown): TimelinePosition | undefined {
  if (!Array.isArray(fields)) return undefined;
  const [tag, first, second] = fields as unknown[];
  const offset = (value: unknown) => (value === null ? {} : isId(value) ? { offset: value } : undefined);
  if (tag === TAGS.tie && fields.length === 3 && isTimestamp(first)) {
    const rest = offset(second);
    return rest && { phase: 'tie', timestamp: first, ...rest };
  }
  if (tag === TAGS.older && fields.length === 2 && (first === null || isTimestamp(first))) {
    return { phase: 'older', ...(first === null ? {} : { timestamp: first }) };
  }
  if ((tag === TAGS.undated || tag === TAGS.storage) && fields.length === 2) {
    const rest = offset(first);
    return rest && { phase: tag === TAGS.undated ? 'undated' : 'storage', ...rest };
  }
  return undefined;
}

export function decodeCursor(text: string): TimelinePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const position = readPosition(parsed);
  if (position === undefined) {
    throw new ValidationError(
      'cursor',
      'cursor: not a cursor this service gave out; start again without one',
    );
  }
  return position;
}
