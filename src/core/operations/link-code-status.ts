/**
 * @module What became of a link code, for the account that asked for it (docs/people.md): so a person learns
 * their code was said, and into whom they are linked now; a code said by someone else shows up here first.
 */
import type { Journal } from '../../journal/journal.js';
import type { LinkCodeRow } from '../../journal/journal-people.js';
import type { LinkCodeStatusResponse } from '../../wire/people.js';

/** How long after a code is marked used its link may still be on its way. */
const LINK_SETTLE_MS = 10_000;

/** The status of `code` at `at` (the caller has checked it is the asking account's code). */
export async function describeLinkCodeStatus(
  journal: Journal,
  code: LinkCodeRow,
  at: number,
): Promise<LinkCodeStatusResponse> {
  const expires_at = new Date(code.expiresAt).toISOString();
  if (code.usedAt === null) return { status: code.expiresAt <= at ? 'expired' : 'waiting', expires_at };
  const person = await journal.people.personOf(code.bot, code.account);
  // A redeem marks the code used, then links: read in between, the link is still being made. (Linked to
  // nobody long after: unlinked since, and the answer says redeemed without a person.)
  if (person === undefined && at - code.usedAt < LINK_SETTLE_MS) return { status: 'waiting', expires_at };
  return {
    status: 'redeemed',
    expires_at,
    redeemed_at: new Date(code.usedAt).toISOString(),
    ...(person === undefined ? {} : { person: { id: person.id, name: person.name } }),
  };
}
