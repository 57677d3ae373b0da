/**
 * @module `POST /save`'s work: normalize a client's window into messages, reject bad ones by field, and commit
 * the new ones to the journal. Chunking and embedding happen later, in the chunk writer, after the answer.
 */
import type { SaveRequest, SaveResponse } from '../wire/save-request.js';
import type { MemoryMessage } from '../chunking/memory-message.js';
import type { BotConfig, MemoryPoolConfig } from '../config/config-types.js';
import { ValidationError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';

/** Below this a number cannot be Unix ms or seconds of a real chat (1e9 s is 2001-09-09). */
const MIN_SECONDS = 1e9;
const MIN_MILLIS = 1e12;

/** `String.prototype.toWellFormed` (Node 20), typed here because TypeScript's ES2023 lib lacks it. */
const toWellFormed = (text: string): string => (text as unknown as { toWellFormed(): string }).toWellFormed();

/** A message may be dated a little ahead (clock skew), never far in the future. */
const MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

/** Unix ms from a client `ts`: seconds are converted (as st-qdrant-memory does), missing means the arrival time. */
export function normalizeTimestamp(ts: number | undefined, arrivedAt: number, field: string): number {
  if (ts === undefined) return arrivedAt;
  const ms = ts >= MIN_MILLIS ? Math.floor(ts) : ts >= MIN_SECONDS ? Math.floor(ts * 1000) : undefined;
  if (ms === undefined) {
    throw new ValidationError(field, `${field}: must be Unix milliseconds (or seconds), got ${ts}`);
  }
  if (ms > arrivedAt + MAX_AHEAD_MS) {
    throw new ValidationError(
      field,
      `${field}: ${ts} is more than a day in the future; send Unix milliseconds`,
    );
  }
  return ms;
}

export interface SaveContext {
  readonly config: MemoryPoolConfig;
  readonly bot: BotConfig;
  /** The request's source, already resolved (request, else API key, else bot default). */
  readonly source: string;
  readonly arrivedAt: number;
}

/** Turns the request's messages into journal messages; throws ValidationError naming the first bad field. */
export function toMemoryMessages(request: SaveRequest, context: SaveContext): MemoryMessage[] {
  const { limits } = context.config;
  if (request.messages.length > limits.maxMessagesPerSave) {
    throw new ValidationError(
      'messages',
      `messages: at most ${limits.maxMessagesPerSave} messages per call, got ${request.messages.length}; send only the recent window`,
    );
  }
  return request.messages.map((m, i): MemoryMessage => {
    const field = `messages[${i}]`;
    // A lone surrogate (an emoji cut in half) would come back from SQLite as U+FFFD and make every re-send
    // of the window look like an edit; store what SQLite can keep.
    const text = toWellFormed(m.text).trim();
    if (text === '') throw new ValidationError(`${field}.text`, `${field}.text: must not be empty`);
    if (text.length > limits.maxTextChars) {
      throw new ValidationError(
        `${field}.text`,
        `${field}.text: at most ${limits.maxTextChars} characters, got ${text.length}`,
      );
    }
    const userId = m.discord_user_id ?? m.user_id;
    // Discord DMs are the channels without a guild; other interfaces say so with is_dm.
    const isDm =
      m.is_dm ?? (context.source === 'discord' && m.channel_id !== undefined && m.guild_id === undefined);
    return {
      bot: context.bot.name,
      source: context.source,
      messageId: m.message_id,
      speakerKind: m.speaker_kind,
      text,
      ts: normalizeTimestamp(m.ts, context.arrivedAt, `${field}.ts`),
      ...(userId === undefined ? {} : { userId }),
      ...(m.speaker_name?.trim() ? { speakerName: m.speaker_name.trim() } : {}),
      ...(m.channel_id === undefined ? {} : { channelId: m.channel_id }),
      ...(m.guild_id === undefined ? {} : { guildId: m.guild_id }),
      ...(isDm ? { isDm: true } : {}),
    };
  });
}

/**
 * Validates and journals a window; an id sent twice in one request counts once, the last copy winning.
 * Resolves once the messages are on disk (the fsync runs off the event loop).
 */
export async function saveMessages(
  journal: Journal,
  request: SaveRequest,
  context: SaveContext,
): Promise<SaveResponse> {
  const messages = toMemoryMessages(request, context);
  const unique = new Map<string, MemoryMessage>();
  for (const m of messages) unique.set(m.messageId, m);
  const result = await journal.recordMessages([...unique.values()], context.arrivedAt);
  await journal.flush();
  return {
    ok: true,
    ...result,
    duplicates: result.duplicates + (messages.length - unique.size),
  };
}
