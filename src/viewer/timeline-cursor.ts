/**
 * @module The timeline's page cursor. Qdrant pages an `order_by` scroll by value, not offset: the next page
 * starts at the last timestamp seen and leaves out the ids already shown at that timestamp.
 */
import { ValidationError } from '../errors/memory-pool-error.js';
import type { StoredPointId } from '../store/point-store.js';

export interface TimelineCursor {
  /** The timestamp the next page starts from (inclusive). */
  readonly timestamp: number;
  /** Ids already shown at that timestamp. */
  readonly seen: readonly StoredPointId[];
}

export function encodeCursor(cursor: TimelineCursor): string {
  return Buffer.from(JSON.stringify([cursor.timestamp, cursor.seen])).toString('base64url');
}

const isId = (value: unknown): value is StoredPointId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

export function decodeCursor(text: string): TimelineCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    typeof parsed[0] !== 'number' ||
    !Array.isArray(parsed[1]) ||
    !parsed[1].every(isId)
  ) {
    throw new ValidationError(
      'cursor',
      'cursor: not a cursor this service gave out; start again without one',
    );
  }
  return { timestamp: parsed[0], seen: parsed[1] };
}
