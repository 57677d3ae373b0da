/**
 * @module The seam between the filter language and its users (engine, HTTP layer).
 * Implemented in this folder; see qdrant-subset.md §4 for the semantics.
 */
import type { PointId } from '../engine/point-id.js';

/** A point payload: a JSON object. */
export type Payload = Record<string, unknown>;

/** What a filter can look at on one point. */
export interface FilterablePoint {
  readonly id: PointId;
  readonly payload: Payload;
  /** Whether the point has a vector of that name (`""` is the unnamed one), for `has_vector`. */
  hasVector(name: string): boolean;
}

/** Full-text index parameters as stored (defaults filled in). */
export interface TextIndexParams {
  readonly tokenizer: 'word' | 'whitespace' | 'prefix' | 'multilingual';
  readonly lowercase: boolean;
  readonly min_token_len?: number;
  readonly max_token_len?: number;
  /** Custom stopwords (`stopwords.custom`), already lowercased when `lowercase` is on; dropped from every text. */
  readonly stopwords?: ReadonlySet<string>;
}

/** Lets the compiled filter ask which keys carry a full-text index (only these change `match.text` semantics). */
export interface IndexLookup {
  textIndex(key: string): TextIndexParams | undefined;
}

/** `with_payload` as sent by a client, parsed. */
export type PayloadSelector =
  | { readonly kind: 'all' }
  | { readonly kind: 'none' }
  | { readonly kind: 'include'; readonly paths: readonly string[] }
  | { readonly kind: 'exclude'; readonly paths: readonly string[] };

/** A predicate over points, built once per request. */
export type PointPredicate = (point: FilterablePoint) => boolean;
