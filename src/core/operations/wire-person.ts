/** @module A person of the journal in its wire shape (times as ISO strings, accounts as clients name them). */
import type { PersonRow } from '../../journal/journal-people.js';
import { toWireAccount } from '../../people/account-key.js';
import type { WirePerson } from '../../wire/people.js';

/** The person as the wire shows it. */
export function toWirePerson(person: PersonRow): WirePerson {
  return {
    id: person.id,
    name: person.name,
    accounts: person.accounts.map(toWireAccount),
    created_at: new Date(person.createdAt).toISOString(),
    updated_at: new Date(person.updatedAt).toISOString(),
  };
}
