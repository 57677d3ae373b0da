/**
 * @module The API key table a running service checks requests against, swapped whole when its config file
 * changes (src/service/reload-api-keys.ts): every replica running one file follows a revoked key or a new
 * scope without a restart.
 */
import type { ApiKeyConfig } from '../config/config-types.js';
import { createKeyMatcher } from './api-key-auth.js';

/** One immutable key table: the keys and their constant-time matcher, built together so they never disagree. */
export interface ApiKeyTable {
  readonly keys: readonly ApiKeyConfig[];
  match(presented: string): ApiKeyConfig | undefined;
}

/** Builds the table (hashing each key once, not per request). */
export function createApiKeyTable(keys: readonly ApiKeyConfig[]): ApiKeyTable {
  return Object.freeze({ keys, match: createKeyMatcher(keys) });
}

/**
 * The current table. A request reads `current` once and keeps what it read: its principal holds the key
 * entry it matched, so a request in flight finishes under the table it started with, and the next one
 * sees the new table.
 */
export class LiveApiKeys {
  #table: ApiKeyTable;

  constructor(keys: readonly ApiKeyConfig[]) {
    this.#table = createApiKeyTable(keys);
  }

  get current(): ApiKeyTable {
    return this.#table;
  }

  /** Swaps in `keys` for every later request, in one assignment (no request sees half a table). */
  replace(keys: readonly ApiKeyConfig[]): void {
    this.#table = createApiKeyTable(keys);
  }
}
