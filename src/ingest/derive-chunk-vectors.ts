/**
 * @module A chunk's vector without asking the model again: a chunk longer than the model's input window is
 * embedded in windows and their vectors pooled anyway, and its parts (windows of two messages, embedded for
 * the parts index) already cover every message, so the pooled mean of the parts' vectors stands in for it.
 * That drops the model texts per stored message from ~1.45 to ~1 with USE-lite (bench/import.bench.ts), at
 * the same recall (docs/recall.md). A chunk the model reads whole is still embedded whole, as before.
 */
import type { EmbedOptions, Embedder, InputWindow } from '../embedding/embedder.js';
import { poolMean } from '../embedding/pool-mean.js';
import type { PartPoint } from '../parts/build-part-points.js';
import type { EmbeddedParts } from '../parts/parts-index.js';

/** A chunk to embed: its point id and the text st-qdrant-memory's vector stands for. */
export interface ChunkText {
  readonly chunkId: string;
  readonly text: string;
}

/** A batch's parts, planned, and the model that embeds them (the chunks' model, unless a test says otherwise). */
export interface PlannedParts {
  readonly points: readonly PartPoint[];
  readonly embedder: Embedder;
}

/** What a batch's model call gave: its parts' vectors for the parts index, and one vector per chunk, in order. */
export interface BatchVectors {
  readonly parts: EmbeddedParts | undefined;
  readonly chunks: Float32Array[];
}

/** The window the model itself reads (a WindowedEmbedder reads any length by pooling windows of it). */
function modelWindowOf(embedder: Embedder): InputWindow {
  return embedder.modelWindow ?? embedder.inputWindow;
}

/**
 * Embeds a batch's parts and the chunks the model must read in one call: with a remote endpoint each call is
 * a round trip (~50 ms and up), and two per batch, parts then chunks, doubled the writer's wait. A chunk
 * longer than the model's window takes the pooled mean of its parts' vectors (the model would pool windows
 * of it too); one the model reads whole is embedded whole, a better vector than any mean. Parts of another
 * model (never in the service) are embedded apart, and then no chunk is derived from them.
 */
export async function embedChunksAndParts(
  embedder: Embedder,
  chunks: readonly ChunkText[],
  parts: PlannedParts | undefined,
  options: EmbedOptions = {},
): Promise<BatchVectors> {
  const points = parts?.points ?? [];
  const sameModel = parts === undefined || parts.embedder === embedder;
  const covered = new Set(sameModel ? points.map((p) => p.payload.chunkId) : []);
  const window = modelWindowOf(embedder);
  const fromModel = chunks.filter((c) => !covered.has(c.chunkId) || fitsWindow(c.text, window));
  const partTexts = points.map((p) => p.payload.text);
  const chunkTexts = fromModel.map((c) => c.text);
  let partVectors: Float32Array[];
  let modelVectors: Float32Array[];
  if (sameModel) {
    const all = await embedAny(embedder, [...partTexts, ...chunkTexts], options);
    partVectors = all.slice(0, partTexts.length);
    modelVectors = all.slice(partTexts.length);
  } else {
    [partVectors, modelVectors] = await Promise.all([
      embedAny(parts.embedder, partTexts, options),
      embedAny(embedder, chunkTexts, options),
    ]);
  }
  const own = new Map(fromModel.map((c, i) => [c.chunkId, modelVectors[i]!]));
  const ofChunk = new Map<string, Float32Array[]>();
  points.forEach((point, i) => {
    const list = ofChunk.get(point.payload.chunkId) ?? [];
    list.push(partVectors[i]!);
    ofChunk.set(point.payload.chunkId, list);
  });
  return {
    parts: parts === undefined ? undefined : { points, vectors: partVectors },
    chunks: chunks.map((c) => own.get(c.chunkId) ?? poolMean(ofChunk.get(c.chunkId)!)),
  };
}

function embedAny(
  embedder: Embedder,
  texts: readonly string[],
  options: EmbedOptions,
): Promise<Float32Array[]> {
  return texts.length === 0 ? Promise.resolve([]) : embedder.embed(texts, options);
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
