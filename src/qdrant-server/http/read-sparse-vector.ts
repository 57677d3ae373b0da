/**
 * @module A sparse vector in a search or query body, `{indices, values}`: u32 indices and f32 values of equal
 * length, indices unique, as Qdrant's `SparseVector` deserializer and validator require (qdrant-hybrid.md §2).
 */
import type { SparseVectorInput } from '../engine/engine-api.js';
import { type FieldViolation, formatError, validationError } from '../qdrant-error.js';
import { invalidType, isJsonObject, missingField } from './body-shape.js';

const MAX_U32 = 0xffff_ffff;

/** Whether a body value looks like a sparse vector (so the caller does not try the dense forms). */
export function isSparseShape(value: unknown): boolean {
  return isJsonObject(value) && ('indices' in value || 'values' in value);
}

/** Reads and validates one sparse vector; `path` names it in a 422 (e.g. `internal.query.values`). */
export function readSparseVector(value: unknown, path: string): SparseVectorInput {
  if (!isJsonObject(value)) throw invalidType(value, 'struct SparseVector');
  const { indices, values } = value;
  if (indices === undefined) throw missingField('indices');
  if (values === undefined) throw missingField('values');
  if (!Array.isArray(indices)) throw invalidType(indices, 'a sequence');
  if (!Array.isArray(values)) throw invalidType(values, 'a sequence');
  for (const index of indices) {
    if (typeof index !== 'number' || !Number.isInteger(index)) throw invalidType(index, 'u32');
    if (index < 0 || index > MAX_U32) throw formatError(`invalid value: integer \`${index}\`, expected u32`);
  }
  for (const weight of values) if (typeof weight !== 'number') throw invalidType(weight, 'f32');
  const violations: FieldViolation[] = [];
  if (indices.length !== values.length) {
    violations.push({
      path: `${path}.values`,
      message: 'Validation error: must be the same length as indices [{}]',
    });
  }
  if (new Set(indices).size !== indices.length) {
    violations.push({ path: `${path}.indices`, message: 'Validation error: must be unique [{}]' });
  }
  if (violations.length > 0) throw validationError(violations);
  return { indices: indices as number[], values: values as number[] };
}
