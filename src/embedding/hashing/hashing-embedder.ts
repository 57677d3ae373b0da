/**
 * @module Deterministic feature-hashing embedder: no model, no I/O, the same vector for the same text in every
 * process. Lexical only: "I adore cats" and "I love kittens" share no features, so paraphrases score near
 * zero. Meant for tests and smoke runs, never for real recall.
 */
import { ConfigError } from '../../errors/memory-pool-error.js';
import type { Embedder, InputWindow } from '../embedder.js';
import { normalizeL2 } from '../l2-normalize.js';

/** Character trigrams count for less than whole words, but let "cat" and "cats" overlap. */
const TRIGRAM_WEIGHT = 0.5;
/** Hashed for texts with no word characters, so every vector has unit length (a zero vector has no cosine). */
const EMPTY_TEXT_FEATURE = '\u0000empty';
const WORD_PATTERN = /[\p{L}\p{N}]+/gu;

export interface HashingEmbedderOptions {
  readonly dimensions: number;
  /** Also hash each word's character trigrams (default true). */
  readonly trigrams?: boolean;
}

/** Embeds by hashing lowercase words (and their trigrams) into signed buckets, then L2-normalizing. */
export class HashingEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  /** Hashing reads every word of any length of text. */
  readonly inputWindow: InputWindow = {
    maxTokens: Number.POSITIVE_INFINITY,
    countTokens: (text) => text.match(WORD_PATTERN)?.length ?? 0,
  };
  readonly #trigrams: boolean;

  constructor(options: HashingEmbedderOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) {
      throw new ConfigError('embedding.dimensions', `must be a positive integer, got ${options.dimensions}`);
    }
    this.dimensions = options.dimensions;
    this.#trigrams = options.trigrams ?? true;
    this.model = this.#trigrams ? 'hashing:words-trigrams-v1' : 'hashing:words-v1';
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  async probe(): Promise<void> {}

  /** Synchronous single-text form, for fakes and tests that need a vector without awaiting. */
  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    const words = text.toLowerCase().match(WORD_PATTERN) ?? [EMPTY_TEXT_FEATURE];
    for (const word of words) {
      this.#addFeature(vector, `w:${word}`, 1);
      if (!this.#trigrams) continue;
      const padded = `^${word}$`;
      for (let i = 0; i + 3 <= padded.length; i++) {
        this.#addFeature(vector, `t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
      }
    }
    return normalizeL2(vector);
  }

  #addFeature(vector: Float32Array, feature: string, weight: number): void {
    const hash = hashFnv1a(feature);
    // The top bit picks the sign, so colliding features cancel out on average instead of piling up.
    const sign = hash & 0x80000000 ? -1 : 1;
    const bucket = (hash & 0x7fffffff) % this.dimensions;
    vector[bucket] = vector[bucket]! + sign * weight;
  }
}

/** 32-bit FNV-1a over UTF-16 code units: tiny, fast and stable across processes and platforms. */
function hashFnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
