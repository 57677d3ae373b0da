/**
 * @module Which query terms any memory a recall may see holds: one lexical search of the parts index per term,
 * limit 1, within the recall's filter, all at once. Exact where the fused ranking's word list is not (a term
 * can be held by a memory ranked below the candidates).
 */
import { partsCollectionName } from '../../parts/parts-collection-name.js';
import { encodeQueryTerms } from '../../parts/sparse-vector.js';
import { SPARSE_VECTOR } from '../../store/hybrid-point-store.js';
import type { MemoryStore } from '../../store/memory-store.js';
import type { StoreFilter } from '../../store/point-store.js';

/**
 * The most terms asked for one recall (all at once, as the recall starts). A longer query (a chat window sent as
 * the query) is not a question about one thing never mentioned: past this, every term counts as held, and the
 * noise cut does not apply.
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
  const held = await Promise.all(
    terms.map(async (term) => {
      const found = await store.queryPoints(partsCollectionName(collection), {
        query: encodeQueryTerms([term]),
        using: SPARSE_VECTOR,
        limit: 1,
        withPayload: ['chunkId'],
        ...(filter === undefined ? {} : { filter }),
      });
      return found.length > 0 ? [term] : [];
    }),
  );
  return new Set(held.flat());
}
