/**
 * @module Cuts one chunk into its parts: short windows of consecutive messages, each small enough for the
 * embedder to read whole, so a message deep in a long chunk still reaches a vector (and the lexical index)
 * next to its immediate context.
 */

/** One message of a chunk as a part shows it: the chunk's `Speaker: text` line. */
export interface PartLine {
  readonly messageId: string;
  readonly line: string;
  readonly ts: number;
}

/** A planned part: consecutive messages of one chunk. */
export interface PlannedPart {
  readonly messageIds: readonly string[];
  /** The lines joined with "\n", as in the chunk (without its date header). */
  readonly text: string;
  /** Unix ms of the part's oldest message. */
  readonly timestamp: number;
}

export interface PartPlanOptions {
  /** Messages per window: each message with its next neighbor(s). */
  readonly messagesPerPart: number;
  /** The embedder's window (`inputWindow.maxTokens`): a window that would pass it keeps fewer messages. */
  readonly maxTokens: number;
  /** The tokens a text takes for the embedder (`inputWindow.countTokens`). */
  readonly countTokens: (text: string) => number;
}

/**
 * Sliding windows of `messagesPerPart` messages, one step apart, over the chunk's lines in chunk order, each
 * shortened from its end to fit `maxTokens` (but never below one message): every message is in at least one part, as the first of its own
 * window if nowhere else. A chunk shorter than a window is one part. Identical windows are kept once.
 */
export function planParts(lines: readonly PartLine[], options: PartPlanOptions): PlannedPart[] {
  const size = Math.max(1, Math.floor(options.messagesPerPart));
  const lastStart = Math.max(0, lines.length - size);
  const parts: PlannedPart[] = [];
  const seen = new Set<string>();
  const covered = new Set<number>();
  for (let start = 0; start < lines.length; start += 1) {
    // Past the last full window, a start only matters for a message no window could hold (it was too long).
    if (start > lastStart && covered.has(start)) continue;
    let end = Math.min(lines.length, start + size);
    let text = joinLines(lines, start, end);
    // An embedder that reads any length (windowing) needs no count: tokenizing is the costly part of planning.
    while (
      end - start > 1 &&
      Number.isFinite(options.maxTokens) &&
      options.countTokens(text) > options.maxTokens
    ) {
      end -= 1;
      text = joinLines(lines, start, end);
    }
    for (let i = start; i < end; i += 1) covered.add(i);
    const window = lines.slice(start, end);
    const key = window.map((l) => l.messageId).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push({
      messageIds: window.map((l) => l.messageId),
      text,
      timestamp: Math.min(...window.map((l) => l.ts)),
    });
  }
  return parts;
}

function joinLines(lines: readonly PartLine[], start: number, end: number): string {
  return lines
    .slice(start, end)
    .map((l) => l.line)
    .join('\n');
}
