/**
 * @module st-qdrant-memory's post-processing of search results: leave out what the reader already has in
 * context, drop near-duplicates, keep the best `limit`.
 */
import { readHeldMessageIds } from '../chunking/held-message-ids.js';
import type { RecallHit } from './recall-hit.js';

export interface SelectHitsOptions {
  /** How many hits to keep. */
  readonly limit: number;
  /** Message ids already in the reader's context: a hit containing any of them is left out. */
  readonly excludeMessageIds?: Iterable<string>;
}

/**
 * st-qdrant-memory's duplicate key: `[digits-]` markers (the chunk date) removed, whitespace collapsed,
 * trimmed, first 200 chars. Two hits with the same key count as one memory.
 */
export function normalizeForDedupe(text: string): string {
  return text
    .replace(/\[[\d-]+\]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .substring(0, 200);
}

/** Whether any of the hit's comma-joined message ids (trimmed, as st splits them) is excluded. */
function containsExcludedId(hit: RecallHit, excluded: ReadonlySet<string>): boolean {
  return readHeldMessageIds(hit.messageIds).some((id) => excluded.has(id));
}

/**
 * Filters hits already cut by score threshold and sorted best first (search for `limit * 2` so enough are
 * left): excluded ids first, then duplicates, the first occurrence winning, then the first `limit`.
 */
export function selectHits(hits: readonly RecallHit[], options: SelectHitsOptions): RecallHit[] {
  const excluded = new Set([...(options.excludeMessageIds ?? [])].map((id) => id.trim()));
  excluded.delete('');
  const seen = new Set<string>();
  const selected: RecallHit[] = [];
  for (const hit of hits) {
    if (selected.length >= options.limit) break;
    if (excluded.size > 0 && containsExcludedId(hit, excluded)) continue;
    const key = normalizeForDedupe(hit.text);
    if (seen.has(key)) continue;
    seen.add(key);
    selected.push(hit);
  }
  return selected;
}
