/** @module The chunk writer's planning step: cut every conversation's pending messages into chunks. */
import { planChunks } from '../chunking/chunk-planner.js';
import { deriveChunkPointId } from '../chunking/chunk-point-id.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { MessageJournal } from '../journal/message-journal.js';

/**
 * Plans chunks for every conversation with pending messages, fixing each chunk's messages in the journal;
 * returns when the earliest remainder goes idle (undefined when nothing stays pending).
 */
export function planReadyChunks(
  journal: MessageJournal,
  config: MemoryPoolConfig,
  now: number,
  flush: boolean,
): number | undefined {
  let earliest: number | undefined;
  for (const conversation of journal.pendingConversations()) {
    const bot = config.bots[conversation.bot];
    if (bot === undefined) continue; // a bot removed from the config: its messages wait, untouched
    const plan = planChunks({
      pending: journal.pendingMessages(conversation.bot, conversation.conversation),
      sizes: bot.chunk,
      speakers: bot,
      now,
      lastArrivalMs: conversation.lastArrivalMs,
      flush,
    });
    for (const messages of plan.ready) {
      const messageIds = messages.map((m) => m.messageId);
      const source = messages[0]!.source; // one conversation: one source
      const chunkId = deriveChunkPointId(bot.collection, source, messageIds);
      journal.chunks.planChunk(
        { chunkId, bot: bot.name, collection: bot.collection, source, messageIds },
        now,
      );
    }
    if (plan.flushAt !== undefined && (earliest === undefined || plan.flushAt < earliest)) {
      earliest = plan.flushAt;
    }
  }
  return earliest;
}
