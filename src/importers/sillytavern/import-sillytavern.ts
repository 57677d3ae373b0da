/**
 * @module `memory-pool import sillytavern`: a chat file, a character's chat folder, the whole `chats/` tree or
 * `group chats/`, read into one history for one bot (one character).
 */
import { basename, dirname } from 'node:path';
import { type ImportedHistory, type ImportedMessage, refuseInput, SkipCounter } from '../imported-history.js';
import { listImportFiles } from '../list-import-files.js';
import { readTextFile } from '../read-text-file.js';
import {
  characterNameOf,
  mapChatMessages,
  readSillyTavernChat,
  type SillyTavernChat,
  speaksIn,
} from './parse-sillytavern-chat.js';

/** SillyTavern keeps group chats in a folder of this name beside `chats/`. */
const GROUP_CHATS = 'group chats';

export interface SillyTavernImportOptions {
  /** The character these chats are the bot's memories of; default the bot's selfSpeaker. */
  readonly character: string | undefined;
  /** Overrides the persona name as the user's speaker. */
  readonly userName: string | undefined;
  /** The bot's selfSpeaker: the character picked out of a tree of several when `character` is not given. */
  readonly selfSpeaker: string;
  readonly source: string;
}

interface FoundChat {
  readonly chat: SillyTavernChat;
  readonly folder: string;
  readonly group: boolean;
  readonly character: string | undefined;
}

/**
 * Reads every chat under `paths`. Chats of one character folder are imported as they are; from a tree of
 * several, only the chats of the bot's character (`--character`, else its selfSpeaker) are, and the others are
 * named in the notes. A group chat is imported when that character speaks in it.
 */
export function importSillyTavern(
  paths: readonly string[],
  options: SillyTavernImportOptions,
): ImportedHistory {
  const found = listImportFiles(paths, '.jsonl').map((file): FoundChat => {
    const chat = readSillyTavernChat(file, readTextFile(file));
    const folder = basename(dirname(file));
    return { chat, folder, group: folder === GROUP_CHATS, character: characterNameOf(chat) ?? folder };
  });
  const target = options.character ?? options.selfSpeaker;
  const characterFolders = new Set(found.filter((f) => !f.group).map((f) => f.folder));
  const isTree = characterFolders.size > 1;
  const skipped = new SkipCounter();
  const notes: string[] = [];
  const otherCharacters = new Map<string, number>();
  const messages: ImportedMessage[] = [];
  for (const { chat, folder, group, character } of found) {
    const stem = basename(chat.file, '.jsonl');
    if (group) {
      if (!speaksIn(chat, target)) {
        notes.push(`${chat.file}: skipped, ${target} does not speak in this group chat`);
        continue;
      }
    } else if (isTree && !sameName(character, target)) {
      otherCharacters.set(character ?? folder, (otherCharacters.get(character ?? folder) ?? 0) + 1);
      continue;
    }
    const name = group ? target : (options.character ?? character);
    if (name === undefined) {
      throw refuseInput(
        chat.file,
        'no character name in this chat',
        'Pass --character <name as in SillyTavern>',
      );
    }
    messages.push(
      ...mapChatMessages(
        chat,
        { character: name, userName: options.userName, group, channelId: `${folder}/${stem}` },
        skipped,
      ),
    );
  }
  for (const [character, files] of otherCharacters) {
    notes.push(
      `skipped ${files} chat file(s) of ${character}: not ${target}; pass --character "${character}" to import them`,
    );
  }
  if (isTree && messages.length === 0 && otherCharacters.size > 0) {
    throw refuseInput(
      paths.join(', '),
      `no chats of ${target} here (found ${[...otherCharacters.keys()].join(', ')})`,
      "Pass --character <one of them>, or set the bot's selfSpeaker to the character's name",
    );
  }
  return { source: options.source, messages, skipped: skipped.counts, notes };
}

function sameName(a: string | undefined, b: string): boolean {
  return a !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}
