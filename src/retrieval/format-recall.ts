/** @module The recall block an agent's prompt receives, byte for byte in st-qdrant-memory's style. */
import type { RecallHit } from './recall-hit.js';

export interface FormatRecallOptions {
  /**
   * Who "said" an old single-message user point. st-qdrant-memory uses the current persona name, falling
   * back to "User"; memory-pool has no persona, so the default is that fallback.
   */
  readonly legacyUserName?: string;
}

/** The heading line, with the newline before it and the blank line after it that st-qdrant-memory writes. */
export const RECALL_HEADER = '\n[Past chat memories]\n\n';

function labelHit(hit: RecallHit, legacyUserName: string): string {
  if (hit.legacySpeaker === undefined) return `Conversation (${hit.speakers})`;
  return hit.legacySpeaker === 'user' ? `${legacyUserName} said` : 'Character said';
}

/**
 * Formats hits in order: the header, then `• Conversation (<speakers>): "<text, newlines as spaces>"
 * (score: NN%)` and a blank line per hit. The block keeps st's trailing "\n\n"; no hits give "".
 */
export function formatRecall(hits: readonly RecallHit[], options: FormatRecallOptions = {}): string {
  if (hits.length === 0) return '';
  let block = RECALL_HEADER;
  for (const hit of hits) block += formatRecallEntry(hit, options);
  return block;
}

/** One hit's entry of the block, its blank line included: the block is the header and these, in order. */
export function formatRecallEntry(hit: RecallHit, options: FormatRecallOptions = {}): string {
  // Only "\n" is flattened, as st does; a "\r" from some other writer stays.
  const text = hit.text.replace(/\n/g, ' ');
  const score = (hit.score * 100).toFixed(0);
  return `• ${labelHit(hit, options.legacyUserName ?? 'User')}: "${text}" (score: ${score}%)\n\n`;
}
