/**
 * @module Self-service link codes: 10 characters of Crockford's base32 (50 bits from the OS's CSPRNG), shown
 * as `ABCDE-FGHJK`, easy to read aloud and type on a phone. Only the SHA-256 of the normalised code is
 * stored, so a journal read (a backup, an export) never yields a code that still works.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ValidationError } from '../errors/memory-pool-error.js';

/** Crockford's base32: no I, L, O or U, so 1/I/L and 0/O cannot be confused. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 10;

/** How long a code is valid. */
export const LINK_CODE_TTL_MS = 10 * 60_000;

/**
 * Failed redeems one account may make through one key within LINK_FAILURE_WINDOW_MS before it is refused
 * with 429. Counted per key too, so another key's wrong guesses never lock the account out.
 */
export const MAX_FAILED_REDEEMS = 5;
/**
 * Distinct accounts that may fail a redeem through one key within the window before that key is refused with
 * 429 for every account: naming a new account for each guess gains nothing past it. Counted in accounts, not
 * failures, and far above normal use (one interface key speaks for all its users), so one user with a handful
 * of accounts spending their 5 wrong codes each cannot lock the interface's other users out of linking.
 */
export const MAX_FAILING_ACCOUNTS_PER_KEY = 50;
export const LINK_FAILURE_WINDOW_MS = 60 * 60_000;

/** A new code, `XXXXX-XXXXX`. */
export function newLinkCode(): string {
  const bytes = randomBytes(LENGTH);
  // 256 is a multiple of 32, so `byte % 32` is uniform: 5 bits a character, 50 in all.
  const chars = [...bytes].map((byte) => ALPHABET[byte % 32]!);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/**
 * The code as typed, normalised (case, the dash, spaces, and the letters Crockford reads as digits), or
 * undefined when it cannot be a code.
 */
export function normaliseLinkCode(typed: string): string | undefined {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  return plain.length === LENGTH && [...plain].every((c) => ALPHABET.includes(c)) ? plain : undefined;
}

/** The code as typed, normalised; a 400 on `code` when it cannot be one. */
export function requireLinkCode(typed: string): string {
  const normalised = normaliseLinkCode(typed);
  if (normalised === undefined) {
    throw new ValidationError(
      'code',
      'code: expected the 10-character code the other interface gave, like ABCDE-FGHJK',
    );
  }
  return normalised;
}

/** What the journal keeps of a normalised code. */
export function hashLinkCode(normalised: string): string {
  return createHash('sha256').update(`memory-pool link code ${normalised}`).digest('hex');
}
