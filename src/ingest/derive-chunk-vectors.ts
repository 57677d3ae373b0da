/**
 * @module A chunk's vector without asking the model again: a chunk longer than the model's input window is
 * embedded in windows and their vectors pooled anyway, and its parts (windows of two messages, embedded for
 * the parts index) already cover every message, so the pooled mean of the parts' vectors stands in for it.
 * That drops the model texts per stored message from ~1.45 to ~1 with USE-lite (bench/import.bench.ts), at
 * the same recall (docs/recall.md). A chunk the model reads whole is still embedded whole, as before.
 */
import type { EmbedOptions, Embedder, InputWindow } from '../embedding/embedder.js';
import { poolMean } from '../embedding/pool-mean.js';
import type { EmbeddedParts } from '../parts/parts-index.js';

/** A chunk to embed: its point id and the text st-qdrant-memory's vector stands for. */
export interface ChunkText {
  readonly chunkId: string;
  readonly text: string;
}

/** The window the model itself reads (a WindowedEmbedder reads any length by pooling windows of it). */
function modelWindowOf(embedder: Embedder): InputWindow {
  return embedder.modelWindow ?? embedder.inputWindow;
}

/**
 * One vector per chunk, in order: the pooled mean of its parts' vectors when the chunk would not fit the
 * model's window (the model would pool windows of it too), else the model's vector of the chunk text. The
 * chunks embedded go out as one call.
 */
export async function deriveChunkVectors(
  embedder: Embedder,
  chunks: readonly ChunkText[],
  parts: EmbeddedParts | undefined,
  options: EmbedOptions = {},
): Promise<Float32Array[]> {
  const partVectors = new Map<string, Float32Array[]>();
  parts?.points.forEach((point, i) => {
    const list = partVectors.get(point.payload.chunkId) ?? [];
    list.push(parts.vectors[i]!);
    partVectors.set(point.payload.chunkId, list);
  });
  const window = modelWindowOf(embedder);
  const vectors: (Float32Array | undefined)[] = chunks.map((chunk) => {
    const own = partVectors.get(chunk.chunkId);
    if (own === undefined || own.length === 0) return undefined;
    // Within the window the model reads the chunk whole, a better vector than any mean: keep asking it.
    return fitsWindow(chunk.text, window) ? undefined : poolMean(own);
  });
  const missing = chunks.filter((_, i) => vectors[i] === undefined);
  const embedded =
    missing.length === 0
      ? []
      : await embedder.embed(
          missing.map((c) => c.text),
          options,
        );
  let next = 0;
  return vectors.map((vector) => vector ?? embedded[next++]!);
}

/**
 * Whether the model reads `text` whole. A text shorter than `maxTokens` UTF-16 units holds no more tokens
 * than that (a token covers at least one character, plus a leading word marker), so short texts skip the
 * tokenizer. A wrong answer costs only quality, never a refusal: the embedder windows what is too long.
 */
function fitsWindow(text: string, window: InputWindow): boolean {
  if (text.length < window.maxTokens) return true;
  try {
    return window.countTokens(text) <= window.maxTokens;
  } catch {
    return false; // the tokenizer refuses it: the parts read it, the model could not
  }
}
