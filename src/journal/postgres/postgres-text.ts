/**
 * @module Postgres TEXT cannot hold U+0000, which every conversation key contains (conversationKey joins
 * source and channel with it) and a message text, a speaker's name or a store's error may. The columns that
 * can hold one are stored escaped (ids cannot hold one: the wire refuses it):
 * `\` as `\\` and U+0000 as `\0`, reversibly, and read back as the SQLite journal returns them.
 */

import type { JournalMessage } from '../message-rows.js';
import { type MessageRow, toMessage } from '../message-rows.js';

/** The stored form of `value`. */
export function encodeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replaceAll('\u0000', '\\0');
}

/** The value of a stored form. */
export function decodeText(stored: string): string {
  return stored.replace(/\\([\\0])/g, (_, escaped: string) => (escaped === '0' ? '\u0000' : '\\'));
}

/** A messages row read from Postgres, as a JournalMessage. */
export function toDecodedMessage(row: MessageRow): JournalMessage {
  return toMessage({
    ...row,
    text: decodeText(row.text),
    speaker_name: row.speaker_name === null ? null : decodeText(row.speaker_name),
  });
}

/** The messages columns stored escaped. */
export const ESCAPED_MESSAGE_COLUMNS = ['text', 'conversation', 'speaker_name'] as const;

/** The chunks columns stored escaped (a store's error text may quote anything). */
export const ESCAPED_CHUNK_COLUMNS = ['last_error'] as const;
