/** @module The filter language and payload paths of the embedded store: the functions the engine and HTTP layer call. */
import type { Filter } from './filter-ast.js';
import type { IndexLookup, Payload, PayloadSelector, PointPredicate } from './filter-api.js';

export type { Filter, Condition, FieldCondition, MatchCondition } from './filter-ast.js';
export type {
  FilterablePoint,
  IndexLookup,
  Payload,
  PayloadSelector,
  PointPredicate,
  TextIndexParams,
} from './filter-api.js';

const pending = (): never => {
  throw new Error('filter language: not implemented yet');
};

/** Parses a `filter` JSON value; null/undefined → undefined. Throws QdrantError with Qdrant's status and message. */
export function parseFilter(_json: unknown): Filter | undefined {
  return pending();
}

/** Builds a predicate for a parsed filter; `undefined` matches everything. */
export function compileFilter(_filter: Filter | undefined, _indexes: IndexLookup): PointPredicate {
  return pending();
}

/** Parses `with_payload` (bool, list of paths, {include}, {exclude}); undefined/null → the endpoint's default. */
export function parsePayloadSelector(_json: unknown, _defaultAll: boolean): PayloadSelector {
  return pending();
}

/** Applies a selector: undefined means "leave `payload` out of the record". */
export function selectPayload(_payload: Payload, _selector: PayloadSelector): Payload | undefined {
  return pending();
}

/** `set payload`: shallow merge where null removes a key; with `key`, merges into the object at that JSON path. Returns a new object. */
export function mergePayload(_payload: Payload, _values: Payload, _key?: string): Payload {
  return pending();
}

/** `delete payload keys`: removes each JSON path. Returns a new object. */
export function deletePayloadPaths(_payload: Payload, _paths: readonly string[]): Payload {
  return pending();
}

/** The multi-value at a JSON path (qdrant-subset.md §4.2), e.g. for payload_schema counts and order_by. */
export function valuesAtPath(_payload: Payload, _path: string): unknown[] {
  return pending();
}

/** Validates a JSON path (key) string; throws 400 `Invalid json path: '…'`. */
export function assertJsonPath(_path: string): void {
  pending();
}

/** Parses a Qdrant datetime string to epoch microseconds (UTC when no zone); undefined when it does not parse. */
export function parseDateTime(_text: string): number | undefined {
  return pending();
}
