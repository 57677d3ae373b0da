/** @module The chunk writer's planning step: cut every conversation's pending messages into chunks. */
import { planChunks } from '../chunking/chunk-planner.js';
import { deriveChunkPointId } from '../chunking/chunk-point-id.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import type { PendingConversation } from '../journal/message-journal.js';

/** Whether to write a conversation's short remainder now: every conversation, none, or those chosen (an import's). */
export type FlushRule = boolean | ((conversation: PendingConversation) => boolean);

/** What one planning unit did. */
export interface PlanningResult {
  /** When the earliest remainder goes idle (undefined when nothing stays pending); complete only if !more. */
  readonly flushAt: number | undefined;
  /** True when the unit stopped at `maxChunks` with conversations left: call again. */
  readonly more: boolean;
  /** Chunks this unit planned. */
  readonly planned: number;
}

/**
 * Plans chunks for conversations with pending messages, fixing each chunk's messages in the journal, as one
 * transaction (one fsync'd commit, not one per chunk). It stops after the conversation that reaches
 * `maxChunks`, so a backlog (a burst while the writer was embedding) is planned in several short units the
 * caller can interleave with /save, instead of one long block of the event loop.
 */
export function planReadyChunks(
  journal: Journal,
  bots: MemoryPoolConfig['bots'],
  now: number,
  flush: FlushRule,
  maxChunks = Number.POSITIVE_INFINITY,
): Promise<PlanningResult> {
  return journal.transaction((tx) => planConversations(tx, bots, now, flush, maxChunks));
}

async function planConversations(
  journal: Journal,
  bots: MemoryPoolConfig['bots'],
  now: number,
  flush: FlushRule,
  maxChunks: number,
): Promise<PlanningResult> {
  let earliest: number | undefined;
  let planned = 0;
  for (const conversation of await journal.pendingConversations()) {
    // A conversation is planned whole or not at all in a unit, so units cut exactly as one pass would.
    if (planned >= maxChunks) return { flushAt: earliest, more: true, planned };
    const bot = bots[conversation.bot];
    if (bot === undefined) continue; // a bot removed from the config: its messages wait, untouched
    const plan = planChunks({
      pending: await journal.pendingMessages(conversation.bot, conversation.conversation),
      sizes: bot.chunk,
      speakers: bot,
      now,
      lastArrivalMs: conversation.lastArrivalMs,
      flush: typeof flush === 'function' ? flush(conversation) : flush,
    });
    for (const messages of plan.ready) {
      const messageIds = messages.map((m) => m.messageId);
      const source = messages[0]!.source; // one conversation: one source
      const chunkId = deriveChunkPointId(bot.collection, source, messageIds);
      // Read in this transaction, so a reembed's switch (another process) is either before or after it:
      // a chunk planned after the switch is never filed under the collection left behind.
      const collection = await journal.routes.resolve(bot.collection);
      await journal.chunks.planChunk({ chunkId, bot: bot.name, collection, source, messageIds }, now);
      planned += 1;
    }
    if (plan.flushAt !== undefined && (earliest === undefined || plan.flushAt < earliest)) {
      earliest = plan.flushAt;
    }
  }
  return { flushAt: earliest, more: false, planned };
}
