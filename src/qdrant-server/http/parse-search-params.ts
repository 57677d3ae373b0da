/**
 * @module The `params` of a search, query or prefetch (Qdrant's `SearchParams`, lib/segment types.rs): `exact`
 * and `hnsw_ef` steer the dense search (engine/graph-search.ts); `quantization`, `indexed_only`, `acorn` and
 * `idf` are accepted and change nothing here, as serde ignores keys it does not know.
 */
import type { SearchParams } from '../engine/engine-api.js';
import { validationError } from '../qdrant-error.js';
import { invalidType, type JsonObject, readObject, readOptionalUnsigned } from './body-shape.js';

/** `{ params }` to spread into a request, or `{}` when absent or null; `path` prefixes validator errors. */
export function readSearchParams(body: JsonObject, path: string): { params?: SearchParams } {
  if (body.params === undefined || body.params === null) return {};
  const params = readObject(body.params, 'struct SearchParams');
  // `exact` is a plain bool with a serde default: absent is false, null is a type error.
  const exact = params.exact;
  if (exact !== undefined && typeof exact !== 'boolean') throw invalidType(exact, 'a boolean');
  const hnswEf = readOptionalUnsigned(params, 'hnsw_ef');
  if (hnswEf !== undefined && hnswEf < 1) {
    throw validationError([
      { path: `${path}.params.hnsw_ef`, message: `value ${hnswEf} invalid, must be 1 or larger` },
    ]);
  }
  return {
    params: {
      ...(exact === undefined ? {} : { exact }),
      ...(hnswEf === undefined ? {} : { hnswEf }),
    },
  };
}
