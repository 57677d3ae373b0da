/**
 * @module The `params` of a search, query or prefetch (Qdrant's `SearchParams`, lib/segment types.rs): `exact`
 * and `hnsw_ef` steer the dense search (engine/graph-search.ts); `idf` changes sparse scores, so it is read:
 * `"global"` (the default) or `{corpus: Filter}`; `quantization`, `indexed_only` and `acorn` are accepted and
 * change nothing here, as serde ignores keys it does not know.
 */
import type { IdfParams, SearchParams } from '../engine/engine-api.js';
import { formatError, validationError } from '../qdrant-error.js';
import { invalidType, isJsonObject, type JsonObject, readObject, readOptionalUnsigned } from './body-shape.js';
import { readFilter } from './parse-read-options.js';

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

/** `params.idf`, or undefined when absent. */
export function readIdfParams(body: JsonObject): { idf?: IdfParams } {
  const params = body.params;
  if (params === undefined || params === null) return {};
  const idf = readObject(params, 'struct SearchParams').idf;
  if (idf === undefined || idf === null) return {};
  if (idf === 'global') return { idf: {} };
  if (!isJsonObject(idf)) {
    if (typeof idf === 'string') {
      throw formatError(`unknown variant \`${idf}\`, expected \`global\``);
    }
    throw invalidType(idf, 'a string or struct IdfCorpusParams');
  }
  const corpus = readFilter(idf, 'corpus');
  if (corpus === undefined) throw formatError('data did not match any variant of untagged enum IdfParams');
  return { idf: { corpus } };
}
