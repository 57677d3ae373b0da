/** @module A DiscordChatExporter message's text as a chunk line: mentions named, attachments noted. */
import { asRecord } from '../read-json-file.js';

const RAW_MENTION = /<@!?(\d+)>/g;

/**
 * Names the people a message mentions. Raw `<@id>` mentions of aliased ids are kept, so the chunk writer names
 * them as it names live Discord messages; other raw mentions become `@name` from the export's mention list.
 * The export's own `@nickname` text of an aliased person becomes their alias.
 */
export function resolveMentions(
  content: string,
  mentions: unknown,
  aliases: Readonly<Record<string, string>>,
): string {
  const people = (Array.isArray(mentions) ? mentions : []).flatMap((raw) => {
    const mention = asRecord(raw);
    return typeof mention?.id === 'string' ? [mention] : [];
  });
  let text = content.replace(RAW_MENTION, (raw, id: string) => {
    if (Object.hasOwn(aliases, id)) return raw;
    const person = people.find((p) => p.id === id);
    const name = person?.nickname ?? person?.name;
    return typeof name === 'string' && name !== '' ? `@${name}` : raw;
  });
  for (const person of people) {
    const id = person.id as string;
    if (!Object.hasOwn(aliases, id)) continue;
    for (const shown of [person.nickname, person.name]) {
      if (typeof shown === 'string' && shown !== '') text = text.split(`@${shown}`).join(aliases[id]!);
    }
  }
  return text;
}

/** One `[attachment: name]` line per file (and `[sticker: name]`), since only the text is remembered. */
export function describeAttachments(message: Record<string, unknown>): string[] {
  const named = (list: unknown, key: string, label: string) =>
    (Array.isArray(list) ? list : []).flatMap((raw) => {
      const name = asRecord(raw)?.[key];
      return typeof name === 'string' && name !== '' ? [`[${label}: ${name}]`] : [];
    });
  return [
    ...named(message.attachments, 'fileName', 'attachment'),
    ...named(message.stickers, 'name', 'sticker'),
  ];
}
