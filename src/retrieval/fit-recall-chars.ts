/**
 * @module A character budget for the recalled block (`max_chars`, `retrieve.maxChars`): the best hits, whole,
 * while the block formatted from them stays within the budget. A hit is a passage of whole messages (or a
 * SillyTavern chunk, whole), so the block never ends mid-message or mid-word.
 */
import { formatRecallEntry, RECALL_HEADER } from './format-recall.js';
import type { RecallHit } from './recall-hit.js';

/**
 * The longest prefix of `hits` (best first) whose formatted block is at most `maxChars` characters (UTF-16
 * code units, as JavaScript counts a string's length). It stops at the first hit that does not fit, so the
 * order a reader trusts is kept: a shorter, worse hit never takes the place of a better one.
 */
export function fitRecallToChars<T extends RecallHit>(hits: readonly T[], maxChars: number): T[] {
  let length = RECALL_HEADER.length;
  const fitted: T[] = [];
  for (const hit of hits) {
    length += formatRecallEntry(hit).length;
    if (length > maxChars) break;
    fitted.push(hit);
  }
  return fitted;
}
