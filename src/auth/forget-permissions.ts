/** @module What a caller may forget, narrowed from its API key once, so forgetting never reads a key. */
import type { Principal } from './api-key-auth.js';

export interface ForgetPermissions {
  /** Who forgets, for the audit log: the key's name, or `open` when no keys are configured. */
  readonly actor: string;
  /** The only sources the caller may forget in; undefined for every source. */
  readonly sources: readonly string[] | undefined;
  /** Whether it may forget the points SillyTavern wrote without a source (admin keys, or no keys). */
  readonly unsourced: boolean;
}

export function forgetPermissions(principal: Principal): ForgetPermissions {
  if (principal.kind === 'open') return { actor: 'open', sources: undefined, unsourced: true };
  const { key } = principal;
  return {
    actor: key.name,
    sources: key.sources === '*' ? undefined : key.sources,
    unsourced: key.scopes.includes('admin'),
  };
}
