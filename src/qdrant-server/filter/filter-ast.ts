/** @module The parsed filter language (qdrant-subset.md §4.1). Produced by parseFilter, consumed by compileFilter. */
import type { PointId } from '../engine/point-id.js';
import type { GeoCondition } from './geo-condition.js';

export interface Filter {
  readonly must: readonly Condition[] | null;
  readonly should: readonly Condition[] | null;
  readonly mustNot: readonly Condition[] | null;
  readonly minShould: { readonly conditions: readonly Condition[]; readonly minCount: number } | null;
}

export type MatchCondition =
  | { readonly kind: 'value'; readonly value: string | number | boolean }
  | { readonly kind: 'any'; readonly values: readonly (string | number)[] }
  | { readonly kind: 'except'; readonly values: readonly (string | number)[] }
  | { readonly kind: 'text' | 'text_any' | 'phrase' | 'prefix'; readonly text: string };

export interface RangeBounds {
  readonly gt?: number;
  readonly gte?: number;
  readonly lt?: number;
  readonly lte?: number;
}

export interface FieldCondition {
  readonly kind: 'field';
  readonly key: string;
  readonly match?: MatchCondition;
  /** Numeric range, or a datetime range (bounds as epoch microseconds) when any bound was a string. */
  readonly range?: { readonly datetime: boolean; readonly bounds: RangeBounds };
  readonly valuesCount?: RangeBounds;
  /** `geo_radius`, `geo_bounding_box`, `geo_polygon`: a value passes when it is a geo point inside any of them. */
  readonly geo?: readonly GeoCondition[];
  readonly isEmpty?: boolean;
  readonly isNull?: boolean;
}

export type Condition =
  | FieldCondition
  | { readonly kind: 'is_empty'; readonly key: string }
  | { readonly kind: 'is_null'; readonly key: string }
  | { readonly kind: 'has_id'; readonly ids: readonly PointId[] }
  | { readonly kind: 'has_vector'; readonly name: string }
  /** The point id's slice-hash modulo `total` is `index` (slice-hash.ts). */
  | { readonly kind: 'slice'; readonly total: number; readonly index: number }
  | { readonly kind: 'nested'; readonly key: string; readonly filter: Filter }
  | { readonly kind: 'filter'; readonly filter: Filter };
