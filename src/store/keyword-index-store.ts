/** @module The port to the store's keyword payload indexes, for the fields recall filters by exact value. */

export interface KeywordIndexStore {
  /** Asks for a keyword payload index on `key`; returns without waiting for the build. No collection is fine. */
  requestKeywordIndex(collection: string, key: string): Promise<void>;
}
