/**
 * @module Imported messages checked by `/save`'s own rules (toMemoryMessages: text, ids, times, DMs), with an
 * error that names the file and line the bad message came from instead of its place in a request.
 */
import type { MemoryMessage } from '../chunking/memory-message.js';
import type { BotConfig, MemoryPoolConfig } from '../config/config-types.js';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import { toMemoryMessages } from '../ingest/save-messages.js';
import { type ImportedHistory, refuseInput } from './imported-history.js';

const FIELD = /^messages\[(\d+)\]\.?(.*)$/;

/** The history as journal messages, in input order; the first bad message throws, naming its origin. */
export function validateImportedMessages(
  history: ImportedHistory,
  context: { readonly config: MemoryPoolConfig; readonly bot: BotConfig; readonly arrivedAt: number },
): MemoryMessage[] {
  const size = context.config.limits.maxMessagesPerSave;
  const valid: MemoryMessage[] = [];
  for (let start = 0; start < history.messages.length; start += size) {
    const slice = history.messages.slice(start, start + size);
    try {
      valid.push(
        ...toMemoryMessages(
          { bot: context.bot.name, messages: slice.map((m) => m.message) },
          { ...context, source: history.source },
        ),
      );
    } catch (error) {
      const match = isMemoryPoolError(error) ? FIELD.exec(error.field ?? '') : null;
      if (match === null) throw error;
      const field = match[2] || 'message';
      const problem = (error as Error).message.replace(/^messages\[\d+\][^:]*:\s*/, '');
      throw refuseInput(slice[Number(match[1])]!.origin, `${field} ${problem}`, 'Fix or delete this message');
    }
  }
  return valid;
}
