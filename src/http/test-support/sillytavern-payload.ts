/** @module The payload st-qdrant-memory writes for a chunk (format.md): for tests that stand in for SillyTavern. */

/** The payload of SillyTavern's `index`-th chunk `text` (which starts with its `[YYYY-MM-DD]` line). */
export function sillyTavernPayload(text: string, index: number): Record<string, unknown> {
  return {
    text,
    speakers: 'Helen, Mythos',
    messageCount: 2,
    timestamp: Date.parse(`${text.slice(1, 11)}T18:00:00Z`),
    messageIds: `st-${index}-a,st-${index}-b`,
    isChunk: true,
  };
}
