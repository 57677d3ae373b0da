/**
 * @module `params` of a search, query or prefetch (SearchParams, `lib/segment/src/types.rs`). Its speed knobs
 * (`hnsw_ef`, `exact`, `quantization`, `indexed_only`, `acorn`) change no result of an exact store and are accepted;
 * `idf` changes scores, so it is read: `"global"` (the default) or `{corpus: Filter}`.
 */
import type { IdfParams } from '../engine/engine-api.js';
import { formatError } from '../qdrant-error.js';
import { invalidType, isJsonObject, type JsonObject, readObject } from './body-shape.js';
import { readFilter } from './parse-read-options.js';

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
