/**
 * @module Which keys a config reload would widen: a key that is new, or an existing key (the same secret)
 * that gains a scope, a source or a bot. A file read while half written can look like that (a key whose
 * `scopes:` line is not written yet takes the defaults), so a widening is applied only once seen twice.
 */
import type { ApiKeyConfig } from '../config/config-types.js';

/** The names of the keys in `next` that may do more than the same key in `current`. */
export function findWidenedApiKeys(
  current: readonly ApiKeyConfig[],
  next: readonly ApiKeyConfig[],
): string[] {
  return next
    .filter((key) => {
      const before = current.find((candidate) => candidate.key === key.key);
      return (
        before === undefined ||
        key.scopes.some((scope) => !before.scopes.includes(scope)) ||
        widens(before.sources, key.sources) ||
        widens(before.bots, key.bots) ||
        key.source !== before.source
      );
    })
    .map((key) => key.name);
}

/** Whether `next` allows a value `before` did not (`'*'` allows every one). */
function widens(before: readonly string[] | '*', next: readonly string[] | '*'): boolean {
  if (before === '*') return false;
  if (next === '*') return true;
  return next.some((value) => !before.includes(value));
}
