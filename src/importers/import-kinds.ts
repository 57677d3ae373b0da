/** @module The importers `memory-pool import <kind>` knows, each reading its files into one history. */
import type { BotConfig } from '../config/config-types.js';
import { importChatGpt } from './chatgpt/import-chatgpt.js';
import { importDiscord } from './discord/import-discord.js';
import { type ImportedHistory, refuseInput } from './imported-history.js';
import { importJsonl } from './jsonl/import-jsonl.js';
import { importSillyTavern } from './sillytavern/import-sillytavern.js';

export const IMPORT_KINDS = ['sillytavern', 'discord', 'chatgpt', 'jsonl'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** What the command line may say about how to read the files. */
export interface ImportReadOptions {
  readonly source?: string | undefined;
  readonly userName?: string | undefined;
  readonly character?: string | undefined;
  readonly selfId?: string | undefined;
}

/** Each kind's source when `--source` does not name one: the place the history came from. */
const DEFAULT_SOURCES: Record<ImportKind, string> = {
  sillytavern: 'sillytavern',
  discord: 'discord',
  chatgpt: 'chatgpt',
  jsonl: 'import',
};

export function isImportKind(kind: string): kind is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(kind);
}

/** Reads `paths` with the importer of `kind`; bad input throws a ValidationError naming file, line and fix. */
export function readHistory(
  kind: ImportKind,
  paths: readonly string[],
  bot: BotConfig,
  options: ImportReadOptions,
): ImportedHistory {
  const source = options.source ?? DEFAULT_SOURCES[kind];
  switch (kind) {
    case 'sillytavern':
      return importSillyTavern(paths, {
        character: options.character,
        userName: options.userName,
        selfSpeaker: bot.selfSpeaker,
        source,
      });
    case 'discord':
      if (options.selfId === undefined) {
        throw refuseInput(
          '--self-id',
          "missing: discord needs the agent's own Discord user id",
          "Pass --self-id <the bot account's user id>; its messages become the agent's, everyone else's a person's",
        );
      }
      return importDiscord(paths, { selfId: options.selfId, aliases: bot.speakerAliases, source });
    case 'chatgpt':
      return importChatGpt(paths, { userName: options.userName, source });
    case 'jsonl':
      return importJsonl(paths, { source });
  }
}
