/** @module A stored point's payload as the viewer shows it, and a journal message as the page edits it. */
import type { JournalMessage } from '../journal/message-journal.js';
import type { StoredRecord } from '../store/point-store.js';
import type { PointMessage, TimelinePoint } from '../wire/viewer.js';

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The largest Unix ms a JavaScript Date holds; beyond it the page's date formatting throws. */
const MAX_DATE_MS = 8.64e15;

/** A timestamp the page can show: a number in 0..8.64e15 (to the ms), else undefined (shown as undated). */
export function safeTimestamp(value: unknown): number | undefined {
  return typeof value === 'number' && value >= 0 && value <= MAX_DATE_MS ? Math.floor(value) : undefined;
}

export function toTimelinePoint(record: StoredRecord): TimelinePoint {
  const p = record.payload;
  const timestamp = safeTimestamp(p.timestamp);
  const optional = (key: string) => (typeof p[key] === 'string' && p[key] !== '' ? { [key]: p[key] } : {});
  return {
    id: record.id,
    text: textOf(p.text),
    speakers: textOf(p.speakers),
    timestamp: timestamp ?? 0,
    messageIds: textOf(p.messageIds),
    messageCount: typeof p.messageCount === 'number' ? p.messageCount : 0,
    ...optional('source'),
    ...optional('channelId'),
    ...optional('guildId'),
    ...(p.isDm === true ? { isDm: true as const } : {}),
    ...(timestamp === undefined ? { undated: true as const } : {}),
  };
}

export function toPointMessage(message: JournalMessage): PointMessage {
  return {
    message_id: message.messageId,
    source: message.source,
    speaker_kind: message.speakerKind,
    text: message.text,
    ts: message.ts,
    ...(message.userId === undefined ? {} : { user_id: message.userId }),
    ...(message.speakerName === undefined ? {} : { speaker_name: message.speakerName }),
    ...(message.channelId === undefined ? {} : { channel_id: message.channelId }),
    ...(message.guildId === undefined ? {} : { guild_id: message.guildId }),
    ...(message.isDm === true ? { is_dm: true as const } : {}),
  };
}
