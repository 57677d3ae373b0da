/**
 * @module One SillyTavern chat file (`.jsonl`: a header line, then one message a line) read into /save messages
 * whose ids are exactly those st-qdrant-memory's "index chats" gives them, so a chat it indexed is not stored twice.
 */
import type { ImportedMessage, SkipCounter } from '../imported-history.js';
import { refuseInput } from '../imported-history.js';
import { parseSendDate } from './parse-send-date.js';

/** st-qdrant-memory's index skips shorter messages (its default minimum length), so they never got an id there. */
export const MIN_MESSAGE_CHARS = 5;

/** What SillyTavern writes as names in headers it has no name for. */
const UNUSED = 'unused';

/** A parsed line and its 1-based line number; `index` is its position among the parsed lines. */
interface ChatLine {
  readonly value: Record<string, unknown>;
  readonly line: number;
  readonly index: number;
}

/** A chat file read into its lines, before any message is mapped. */
export interface SillyTavernChat {
  readonly file: string;
  readonly lines: readonly ChatLine[];
  /** The header line, when the first line is one (it has no `mes`). */
  readonly header: Record<string, unknown> | undefined;
}

export interface ChatMappingOptions {
  /** The character whose messages are the agent's (`self`), and the prefix of every id. */
  readonly character: string;
  /** The user's speaker name; default the chat's persona name. */
  readonly userName: string | undefined;
  /** A group chat: only `character`'s messages are `self`, the other characters speak as themselves. */
  readonly group: boolean;
  /** The conversation's channel id (one per chat file, so chats never share a chunk). */
  readonly channelId: string;
}

/**
 * Reads a chat file's lines as SillyTavern's chat endpoint does: every line is parsed and the blank ones
 * dropped, and a message's index is its position among what is left, header included (the extension's ids
 * count from there). A line that is not JSON is refused: SillyTavern would drop it silently and shift nothing,
 * so deleting it keeps every id.
 */
export function readSillyTavernChat(file: string, text: string): SillyTavernChat {
  const lines: ChatLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw refuseInput(
        `${file}:${i + 1}`,
        `not a JSON line (${(error as Error).message})`,
        'Repair the line or delete it (SillyTavern skips it too, so no message id changes)',
      );
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw refuseInput(`${file}:${i + 1}`, 'not a chat line (a JSON object)', 'Delete the line');
    }
    lines.push({ value: value as Record<string, unknown>, line: i + 1, index: lines.length });
  });
  const first = lines[0]?.value;
  return { file, lines, header: first !== undefined && !('mes' in first) ? first : undefined };
}

/** The character's name as the extension knows it: the header's, else the first character message's. */
export function characterNameOf(chat: SillyTavernChat): string | undefined {
  const named = chat.header?.character_name;
  if (typeof named === 'string' && named.trim() !== '' && named !== UNUSED) return named;
  for (const { value } of chat.lines) {
    if ('mes' in value && !value.is_user && !value.is_system && typeof value.name === 'string')
      return value.name;
  }
  return undefined;
}

/** Whether `character` wrote any message of the chat (group chats are imported for their participants). */
export function speaksIn(chat: SillyTavernChat, character: string): boolean {
  return chat.lines.some(({ value }) => 'mes' in value && !value.is_user && value.name === character);
}

/** Maps a chat's messages; system and hidden ones (`is_system`) and very short ones are counted in `skipped`. */
export function mapChatMessages(
  chat: SillyTavernChat,
  options: ChatMappingOptions,
  skipped: SkipCounter,
): ImportedMessage[] {
  const headerUser = chat.header?.user_name;
  const personaName =
    options.userName ?? (typeof headerUser === 'string' && headerUser !== UNUSED ? headerUser : undefined);
  const messages: ImportedMessage[] = [];
  for (const { value, line, index } of chat.lines) {
    if (value === chat.header) continue;
    const origin = `${chat.file}:${line}`;
    if (value.mes !== undefined && typeof value.mes !== 'string') {
      throw refuseInput(origin, '`mes` is not a string', 'Set `mes` to the message text');
    }
    // Narrator lines (/sys) are SillyTavern's system messages even where is_system is unset.
    const extra = value.extra as { type?: unknown } | undefined;
    if (value.is_system || extra?.type === 'narrator') {
      skipped.add('system or hidden messages');
      continue;
    }
    const text = (value.mes ?? '').trim();
    if (text.length < MIN_MESSAGE_CHARS) {
      skipped.add(`messages shorter than ${MIN_MESSAGE_CHARS} characters (st-qdrant-memory skips them too)`);
      continue;
    }
    const ms = parseSendDate(value.send_date);
    if (ms === undefined) {
      throw refuseInput(
        origin,
        `send_date ${JSON.stringify(value.send_date)} is not a date`,
        'Set it to the time the message was sent, e.g. "2024-05-12T10:23:45.000Z"',
      );
    }
    const name = typeof value.name === 'string' ? value.name.trim() : '';
    const isUser = Boolean(value.is_user);
    const isSelf = !isUser && (!options.group || value.name === options.character);
    const speakerName = isUser ? (personaName ?? name) : isSelf ? '' : name;
    messages.push({
      origin,
      message: {
        speaker_kind: isSelf ? 'self' : 'user',
        text,
        message_id: `${options.character}_${ms}_${index}`,
        ts: Math.floor(ms),
        channel_id: options.channelId,
        ...(speakerName === '' ? {} : { speaker_name: speakerName }),
      },
    });
  }
  return messages;
}
