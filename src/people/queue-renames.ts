/**
 * @module The rename of chunks already stored when a link changes: every stored chunk of the bot holding a
 * message from one of the accounts (or a `<@id>` mention of a linked Discord user) is queued for the chunk
 * writer to rewrite, under the same point id and timestamp, with the names the links give now. SillyTavern's
 * own points are not chunks of the journal, so they are never touched. Running it again queues the same chunks
 * again (a rewrite to the same text), so an interrupted pass is finished by repeating the change.
 */
import type { Journal } from '../journal/journal.js';
import type { AccountKey } from '../journal/journal-people.js';
import { accountOfMessage } from '../journal/people-rows.js';

const MENTION = /<@!?(\d+)>/g;

/** Queues the rewrites; resolves with how many chunks were queued. */
export async function queueRenames(
  journal: Journal,
  bot: string,
  accounts: readonly AccountKey[],
  now: number,
): Promise<number> {
  const wanted = new Set(accounts.map((a) => `${a.kind}\u0000${a.value}`));
  if (wanted.size === 0) return 0;
  let queued = 0;
  for (const chunk of await journal.chunks.storedChunks(bot)) {
    const messages = await journal.chunks.chunkMessages(chunk.chunkId);
    const named = messages.some((m) => {
      const account =
        m.speakerKind === 'user' ? accountOfMessage(m.source, m.userId, m.speakerName) : undefined;
      if (account !== undefined && wanted.has(`${account.kind}\u0000${account.value}`)) return true;
      return [...m.text.matchAll(MENTION)].some((match) => wanted.has(`user\u0000discord:${match[1]}`));
    });
    if (!named) continue;
    await journal.chunks.requeueStaleWrite(chunk, now);
    queued += 1;
  }
  return queued;
}
