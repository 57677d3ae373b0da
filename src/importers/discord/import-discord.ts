/**
 * @module `memory-pool import discord`: DiscordChatExporter JSON exports (a channel or a DM) read into /save
 * messages with the export's ids and times, so a channel the bot also saw live is not stored twice.
 */
import { type ImportedHistory, type ImportedMessage, refuseInput, SkipCounter } from '../imported-history.js';
import { listImportFiles } from '../list-import-files.js';
import { asRecord, readJsonFile } from '../read-json-file.js';
import { describeAttachments, resolveMentions } from './render-discord-content.js';

export interface DiscordImportOptions {
  /** The agent's own Discord account: its messages become `self`. */
  readonly selfId: string;
  readonly aliases: Readonly<Record<string, string>>;
  readonly source: string;
}

/** Message types that carry what someone said; joins, pins, boosts and calls are left out. */
const SPOKEN_TYPES = new Set(['Default', 'Reply']);
const EXPORT_FIX = 'Export the channel again with DiscordChatExporter in JSON format (-f Json)';

/** Reads every `.json` export under `paths`. */
export function importDiscord(paths: readonly string[], options: DiscordImportOptions): ImportedHistory {
  const skipped = new SkipCounter();
  const messages: ImportedMessage[] = [];
  for (const file of listImportFiles(paths, '.json')) {
    const doc = asRecord(readJsonFile(file, EXPORT_FIX));
    const channel = asRecord(doc?.channel);
    if (doc === undefined || typeof channel?.id !== 'string' || !Array.isArray(doc.messages)) {
      throw refuseInput(file, 'not a DiscordChatExporter export (no channel.id or messages)', EXPORT_FIX);
    }
    const channelId = channel.id;
    const guildId = asRecord(doc.guild)?.id;
    // DMs are exported under a placeholder guild "0"; their channel types start with "Direct".
    const isDm = String(channel.type ?? '').startsWith('Direct') || guildId === '0' || guildId === undefined;
    doc.messages.forEach((raw, i) => {
      const origin = `${file} messages[${i}]`;
      const message = asRecord(raw);
      const author = asRecord(message?.author);
      if (message === undefined || typeof message.id !== 'string' || typeof author?.id !== 'string') {
        throw refuseInput(origin, 'a message without id or author.id', EXPORT_FIX);
      }
      if (!SPOKEN_TYPES.has(String(message.type ?? 'Default'))) {
        skipped.add('Discord system messages (joins, pins, calls)');
        return;
      }
      const ts = typeof message.timestamp === 'string' ? Date.parse(message.timestamp) : Number.NaN;
      if (Number.isNaN(ts)) {
        throw refuseInput(`${origin}.timestamp`, 'not a date', EXPORT_FIX);
      }
      const content = resolveMentions(String(message.content ?? ''), message.mentions, options.aliases);
      const text = [content, ...describeAttachments(message)].filter((part) => part.trim() !== '').join('\n');
      if (text.trim() === '') {
        skipped.add('empty messages (no text or attachment)');
        return;
      }
      const name = [author.nickname, author.name].find((n): n is string => typeof n === 'string' && n !== '');
      messages.push({
        origin,
        message: {
          speaker_kind: author.id === options.selfId ? 'self' : 'user',
          text,
          message_id: message.id,
          ts,
          discord_user_id: author.id,
          ...(name === undefined ? {} : { speaker_name: name }),
          channel_id: channelId,
          ...(isDm ? { is_dm: true } : { guild_id: String(guildId) }),
        },
      });
    });
  }
  return { source: options.source, messages, skipped: skipped.counts, notes: [] };
}
