/**
 * @module Qdrant's validation of an `hnsw_config` (lib/segment types.rs `HnswConfig`, collection_config
 * `HnswConfigDiff`): `ef_construct` at least 4 and `full_scan_threshold` at least 10, else a 422 naming the field.
 */
import { type FieldViolation, validationError } from '../qdrant-error.js';
import { isJsonObject } from './body-shape.js';

const MINIMUMS = { ef_construct: 4, full_scan_threshold: 10 } as const;

/** Throws the 422 when the `hnsw_config` at `path` (absent or not an object: nothing to check) breaks a minimum. */
export function checkHnswConfig(value: unknown, path: string): void {
  if (!isJsonObject(value)) return;
  const violations: FieldViolation[] = [];
  for (const [field, minimum] of Object.entries(MINIMUMS)) {
    const setting = value[field];
    if (typeof setting === 'number' && setting < minimum)
      violations.push({
        path: `${path}.${field}`,
        message: `value ${setting} invalid, must be ${minimum} or larger`,
      });
  }
  if (violations.length > 0) throw validationError(violations);
}
