/**
 * @module What hybrid recall returns for a ranking of parts: passages, not whole chunks. Each part, best
 * first, contributes the messages of it no better passage already holds, so the context a reader takes in
 * rank order spends no turn twice and no turn on a chunk's unrelated neighbors. A chunk without parts
 * (SillyTavern's) is one passage, whole.
 */
import { splitMessageIds } from '../chunking/held-message-ids.js';
import type { FusedEntry } from './fuse-scores.js';

/** Consecutive messages of one chunk to return as one hit. */
export interface Passage {
  readonly chunkId: string;
  /** The passage's message ids in chunk order; undefined for the whole chunk. */
  readonly messageIds?: readonly string[];
  /** The entry that ranked it. */
  readonly entry: FusedEntry;
}

export interface PassagePlanOptions {
  /** How many passages to plan at most. */
  readonly limit: number;
  /** Message ids the reader already has: never put in a passage; a whole chunk holding one is left out. */
  readonly excludeMessageIds?: ReadonlySet<string>;
  /** Chunks to leave out entirely (gone from the store, or holding a forgotten message). */
  readonly skipChunks?: ReadonlySet<string>;
  /** The message ids of a whole chunk (its payload's), to leave it out when it holds an excluded one. */
  readonly chunkMessageIds?: (chunkId: string) => readonly string[] | undefined;
}

/** Plans passages from fused entries, best first, up to `limit`. */
export function planPassages(entries: readonly FusedEntry[], options: PassagePlanOptions): Passage[] {
  const covered = new Set(options.excludeMessageIds ?? []);
  const passages: Passage[] = [];
  for (const entry of entries) {
    if (passages.length >= options.limit) break;
    if (options.skipChunks?.has(entry.chunkId)) continue;
    if (entry.part === undefined) {
      const ids = options.chunkMessageIds?.(entry.chunkId) ?? [];
      // st-qdrant-memory's rule for a whole chunk: one that holds a message the reader has is left out.
      if (ids.some((id) => options.excludeMessageIds?.has(id))) continue;
      for (const id of ids) covered.add(id);
      passages.push({ chunkId: entry.chunkId, entry });
      continue;
    }
    const fresh = splitMessageIds(entry.part.messageIds).filter((id) => !covered.has(id));
    if (fresh.length === 0) continue;
    for (const id of fresh) covered.add(id);
    passages.push({ chunkId: entry.chunkId, messageIds: fresh, entry });
  }
  return passages;
}
