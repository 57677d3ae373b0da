/** @module The filter language and payload paths of the embedded store: the functions the engine and HTTP layer call. */
import type { Payload } from './filter-api.js';
import { collectValues, parseJsonPath } from './json-path.js';

export type { Filter, Condition, FieldCondition, MatchCondition } from './filter-ast.js';
export type {
  FilterablePoint,
  IndexLookup,
  Payload,
  PayloadSelector,
  PointPredicate,
  TextIndexParams,
} from './filter-api.js';

export { parseFilter } from './parse-filter.js';
export { compileFilter } from './compile-filter.js';
export { parsePayloadSelector, selectPayload } from './payload-selector.js';
export { mergePayload, deletePayloadPaths } from './payload-edit.js';
export { parseDateTime } from './date-time.js';
export { copyJson, emptyJsonObject, inheritsNothing, setOwn } from './json-value.js';

/** The multi-value at a JSON path (qdrant-subset.md §4.2), e.g. for payload_schema counts and order_by. Throws 400 on an invalid path. */
export function valuesAtPath(payload: Payload, path: string): unknown[] {
  return collectValues(payload, parseJsonPath(path));
}

/** Validates a JSON path (key) string; throws 400 `Invalid json path: '…'`. */
export function assertJsonPath(path: string): void {
  parseJsonPath(path);
}
