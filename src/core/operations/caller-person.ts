/**
 * @module A person as a caller may see them: an admin key (or a service without keys) sees every account; any
 * other key only the accounts it vouched for in that request, so a redeem, an unlink or a 409 never shows an
 * interface the other accounts of a person (a code said by the wrong person would otherwise hand them the list).
 */
import type { Principal } from '../../auth/api-key-auth.js';
import { MemoryPoolError, ValidationError } from '../../errors/memory-pool-error.js';
import type { AccountKey, PersonRow } from '../../journal/journal-people.js';
import { sameAccount } from '../../people/account-key.js';
import type { WirePerson } from '../../wire/people.js';
import { toWirePerson } from './wire-person.js';

/** Whether the caller sees people whole: an admin key, or no keys at all (loopback only). */
export function seesAccountLists(principal: Principal): boolean {
  return principal.kind === 'open' || principal.key.scopes.includes('admin');
}

/** The person, with only the accounts of `shown` unless the caller sees account lists. */
export function toCallerPerson(
  principal: Principal,
  person: PersonRow,
  shown: readonly AccountKey[],
): WirePerson {
  if (seesAccountLists(principal)) return toWirePerson(person);
  return toWirePerson({
    ...person,
    accounts: person.accounts.filter((a) => shown.some((s) => sameAccount(a, s))),
  });
}

/** An `account_linked` 409 without the person it names, for a caller that does not see account lists. */
export function hideLinkedPerson(principal: Principal, error: unknown): unknown {
  if (seesAccountLists(principal) || !(error instanceof MemoryPoolError)) return error;
  if (error.code !== 'account_linked') return error;
  return new ValidationError(
    'account',
    "account: one of the two accounts is already linked to someone else (merging two people is the owner's call): unlink it there first, or ask the owner",
    'account_linked',
    409,
  );
}
