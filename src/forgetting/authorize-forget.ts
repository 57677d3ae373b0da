/** @module The checks a forget makes beyond the forget scope: the unsourced points and the key's sources. */
import type { ForgetPermissions } from '../auth/forget-permissions.js';
import { AuthError } from '../errors/memory-pool-error.js';
import type { ParsedForget } from './parse-forget-selector.js';

/** Throws 403 when the caller may not forget what `parsed` names. */
export function authorizeForget(parsed: ParsedForget, permissions: ForgetPermissions): void {
  const { actor, sources } = permissions;
  const unsourced =
    parsed.kind === 'unsourced' ||
    parsed.kind === 'unsourced-points' ||
    (parsed.kind === 'person' && parsed.includeUnsourced);
  if (unsourced && !permissions.unsourced) {
    throw new AuthError(
      'forbidden',
      `the API key "${actor}" needs the admin scope to forget points without a source`,
    );
  }
  const namedSource =
    parsed.kind === 'journal' && (parsed.selector.kind === 'source' || parsed.selector.kind === 'message_ids')
      ? parsed.selector.source
      : undefined;
  if (namedSource !== undefined && sources && !sources.includes(namedSource)) {
    throw new AuthError('forbidden', `the API key "${actor}" may not act for the source "${namedSource}"`);
  }
}
