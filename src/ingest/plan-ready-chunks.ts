/** @module The chunk writer's planning step: cut every conversation's pending messages into chunks. */
import { createHash } from 'node:crypto';
import { planChunks } from '../chunking/chunk-planner.js';
import { deriveChunkPointId } from '../chunking/chunk-point-id.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import type { PendingConversation } from '../journal/message-journal.js';
import { createHolderId } from '../runtime/holder-id.js';

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
 *
 * Each conversation is planned under the lease `plan:<bot>:<conversation>`, taken and given back inside the
 * transaction: a replica planning the same conversation at the same moment waits for this commit, then reads
 * what is still pending, so two replicas never cut the same messages into two chunks.
 */
export function planReadyChunks(
  journal: Journal,
  bots: MemoryPoolConfig['bots'],
  now: number,
  flush: FlushRule,
  maxChunks = Number.POSITIVE_INFINITY,
  holder = createHolderId(),
): Promise<PlanningResult> {
  return journal.transaction((tx) => planConversations(tx, bots, now, flush, maxChunks, holder));
}

/** Given back before the commit that took it, so its expiry matters only to a lease someone keeps. */
const PLAN_LEASE_MS = 60_000;

/** The lease's name; conversation keys hold U+0000 separators, which a lease name must not. */
export function planLeaseName(bot: string, conversation: string): string {
  return `plan:${bot}:${createHash('sha256').update(conversation).digest('hex').slice(0, 32)}`;
}

async function planConversations(
  journal: Journal,
  bots: MemoryPoolConfig['bots'],
  now: number,
  flush: FlushRule,
  maxChunks: number,
  holder: string,
): Promise<PlanningResult> {
  let earliest: number | undefined;
  let planned = 0;
  // In one order on every replica, so two that plan at once take the leases in the same order (no deadlock).
  const conversations = (await journal.pendingConversations()).sort(byBotAndConversation);
  for (const conversation of conversations) {
    // A conversation is planned whole or not at all in a unit, so units cut exactly as one pass would.
    if (planned >= maxChunks) return { flushAt: earliest, more: true, planned };
    const bot = bots[conversation.bot];
    if (bot === undefined) continue; // a bot removed from the config: its messages wait, untouched
    const lease = planLeaseName(conversation.bot, conversation.conversation);
    // Another planner's uncommitted lease makes this wait for its commit; a lease kept by another holder
    // (none of the planners keeps one) leaves the conversation to it.
    if (!(await journal.leases.acquire(lease, holder, PLAN_LEASE_MS, now))) continue;
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
    await journal.leases.release(lease, holder);
    if (plan.flushAt !== undefined && (earliest === undefined || plan.flushAt < earliest)) {
      earliest = plan.flushAt;
    }
  }
  return { flushAt: earliest, more: false, planned };
}

function byBotAndConversation(a: PendingConversation, b: PendingConversation): number {
  if (a.bot !== b.bot) return a.bot < b.bot ? -1 : 1;
  return a.conversation < b.conversation ? -1 : a.conversation > b.conversation ? 1 : 0;
}
