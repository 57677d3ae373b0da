/**
 * @module The user account a message was sent from, as one string: the one rule both the journal (who is who,
 * who to forget) and the chunk formatter (who a DM is with) read a message's user id by.
 */

/**
 * The account value of a user id saved under `source`: Discord's recorder sends the bare snowflake, which is the
 * account `discord:<id>` (what the Hermes plugin sends for the same person); other sources send their own
 * qualified id, taken as it is. Undefined for no id (a persona, an unknown user).
 */
export function userAccountOf(source: string, userId: string | null | undefined): string | undefined {
  if (userId === null || userId === undefined || userId === '') return undefined;
  return source === 'discord' && !userId.includes(':') ? `discord:${userId}` : userId;
}
