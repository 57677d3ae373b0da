/**
 * @module Which query terms any memory a recall may see holds: one read of the parts index (the store's
 * `findHeldSparseTerms`: one pass over the embedded store's lexical index, one limit-1 search per term on a
 * Qdrant over REST), within the recall's filter. Exact where the fused ranking's word list is not (a term can
 * be held by a memory ranked below the candidates).
 */
import { partsCollectionName } from '../../parts/parts-collection-name.js';
import { encodeQueryTerms } from '../../parts/sparse-vector.js';
import type { MemoryStore } from '../../store/memory-store.js';
import type { StoreFilter } from '../../store/point-store.js';

/**
 * The most terms asked for one recall. A longer query (a chat window sent as the query) is not a question about
 * one thing never mentioned: past this, every term counts as held, and the noise cut does not apply.
 */
export const MAX_TERMS_ASKED = 16;

/** The subset of `terms` (stemmed index terms, as tokenizeText gives them) some part within `filter` holds. */
export async function findHeldTerms(
  store: MemoryStore,
  collection: string,
  terms: readonly string[],
  filter: StoreFilter | undefined,
): Promise<ReadonlySet<string>> {
  if (terms.length > MAX_TERMS_ASKED) return new Set(terms);
  // A term's index is its hash, as the parts' lexical vectors write it (two terms may share one: both held).
  const indexOf = new Map(terms.map((term) => [term, encodeQueryTerms([term]).indices[0]]));
  const indices = [...indexOf.values()].filter((index) => index !== undefined);
  const held = await store.findHeldSparseTerms(partsCollectionName(collection), indices, filter);
  return new Set(terms.filter((term) => held.has(indexOf.get(term) ?? -1)));
}
