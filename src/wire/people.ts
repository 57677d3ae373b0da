/** @module The wire shapes of people: an account as a client names it, a person, and the requests about them. */
import { z } from 'zod';
import { isCleanText, NOT_CLEAN_TEXT } from './clean-text.js';

/** C0 and C1 controls, U+2028/U+2029 (line and paragraph separators) and the bidirectional controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/;
/** Only zero-width and other invisible format characters (and spaces). */
const INVISIBLE_ONLY = /^[\s\u200b-\u200d\u2060\ufeff\u00ad\u180e]+$/;

/** A person's one name: what chunk texts say. Control characters would break the chunk text's lines. */
export const personNameSchema = z
  .string({ message: "must be the person's name, a string" })
  .transform((name) => name.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty or only whitespace')
      .max(200, 'must be at most 200 characters')
      .refine(
        (name) => !UNSAFE_IN_NAME.test(name),
        'must not hold control characters, line breaks or separators, or bidirectional controls',
      )
      .refine((name) => !INVISIBLE_ONLY.test(name), 'must hold a visible character, not only zero-width ones')
      .refine(isCleanText, NOT_CLEAN_TEXT),
  );

/** Trimmed (an id with spaces around it is the same account), 1-200 characters, storable. */
const accountId = z
  .string()
  .transform((id) => id.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty or only whitespace')
      .max(200, 'must be at most 200 characters')
      .refine(isCleanText, NOT_CLEAN_TEXT),
  );
const DISCORD_ID = /^\d+$/;
const DISCORD_DIGITS = 'must be the Discord user id, digits only (e.g. 123456789012345678)';
/** `platform:id`, the platform named by what comes before the first colon. */
const QUALIFIED = /^([^:]*):(.*)$/s;

/**
 * A user id as one account is always spelled: trimmed on both sides of the colon, a Discord one as
 * `discord:<digits>` whatever case the platform came in; or why it names no account.
 */
export function normaliseUserId(id: string): { id: string } | { problem: string } {
  const qualified = QUALIFIED.exec(id);
  if (qualified === null) return { id };
  const platform = qualified[1]!.trim();
  const rest = qualified[2]!.trim();
  if (platform === '') return { problem: 'must name the platform before ":" (e.g. telegram:5678)' };
  if (rest === '') return { problem: `must name the account after "${platform}:" (e.g. ${platform}:5678)` };
  if (platform.toLowerCase() !== 'discord') return { id: `${platform}:${rest}` };
  return DISCORD_ID.test(rest)
    ? { id: `discord:${rest}` }
    : { problem: `after "discord:" ${DISCORD_DIGITS}` };
}

const userId = accountId.transform((id, context) => {
  const normal = normaliseUserId(id);
  if ('id' in normal) return normal.id;
  context.addIssue({ code: 'custom', message: normal.problem });
  return z.NEVER;
});
const ACCOUNT_SHAPES =
  'must be one of { "discord_user_id": "…" }, { "user_id": "telegram:…" } or { "persona": "…" }';

/** Exactly one of the three fields, nothing else. */
export const accountSchema = z
  .object(
    {
      discord_user_id: accountId
        .refine((id) => !id.includes(':'), 'is the bare Discord id (send a qualified id as user_id)')
        .refine((id) => id.includes(':') || DISCORD_ID.test(id), DISCORD_DIGITS)
        .optional(),
      user_id: userId.optional(),
      persona: accountId.optional(),
    },
    { message: ACCOUNT_SHAPES },
  )
  .strict()
  .refine((account) => Object.values(account).filter((v) => v !== undefined).length === 1, ACCOUNT_SHAPES)
  .transform((account) => account as WireAccount);

const accountList = z.array(accountSchema).max(100, 'must list at most 100 accounts');

/**
 * An account to unlink: as `accountSchema`, but a spelling linked before the API refused it (a Discord id that
 * is not digits, `discord:user-42`) is accepted as GET lists it, so the owner can still unlink it; the person
 * must have it (people-directory.ts).
 */
const storedAccountSchema = z
  .object(
    {
      discord_user_id: accountId
        .refine((id) => !id.includes(':'), 'is the bare Discord id (send a qualified id as user_id)')
        .optional(),
      user_id: accountId
        .transform((id) => {
          const normal = normaliseUserId(id);
          return 'id' in normal ? normal.id : id;
        })
        .optional(),
      persona: accountId.optional(),
    },
    { message: ACCOUNT_SHAPES },
  )
  .strict()
  .refine((account) => Object.values(account).filter((v) => v !== undefined).length === 1, ACCOUNT_SHAPES)
  .transform((account) => account as WireAccount);

export const createPersonSchema = z.object({
  name: personNameSchema,
  accounts: accountList.min(1, 'must list at least one account'),
});

/** One text per account, however it was spelled: `discord_user_id 1` and `user_id discord:1` are one. */
function accountText(account: WireAccount): string {
  if ('discord_user_id' in account) return `user discord:${account.discord_user_id}`;
  if ('user_id' in account) return `user ${account.user_id}`;
  return `persona ${account.persona}`;
}

export const updatePersonSchema = z
  .object({
    name: personNameSchema.optional(),
    add: accountList.optional(),
    remove: z.array(storedAccountSchema).max(100, 'must list at most 100 accounts').optional(),
  })
  .strict()
  .superRefine((change, context) => {
    // Linking and unlinking one account at once has no order that means anything: refuse rather than guess.
    const removed = (change.remove ?? []).map(accountText);
    for (const [i, account] of (change.add ?? []).entries()) {
      const j = removed.indexOf(accountText(account));
      if (j === -1) continue;
      context.addIssue({
        code: 'custom',
        path: ['add', i],
        message: `names the same account as remove[${j}] (${accountText(account).replace(/^\w+ /, '')}); link it or unlink it, not both in one change`,
      });
      return;
    }
  });

export const accountRequestSchema = z.object({ account: accountSchema });

export const redeemLinkCodeSchema = z.object({
  code: z.string({ message: 'must be the code the other interface gave, like ABCDE-FGHJK' }).max(40),
  account: accountSchema,
});

/** POST /bots/{bot}/link-codes/status: the code, asked about by the account that asked for it. */
export const linkCodeStatusSchema = redeemLinkCodeSchema;

/**
 * An account as a client names it: a Discord user (`discord_user_id`), any other platform's user id as the
 * Hermes plugin sends it (`user_id`, platform-qualified: `telegram:5678`; `discord:1234` is the Discord user
 * 1234), or a SillyTavern persona name (`persona`).
 */
export type WireAccount =
  | { readonly discord_user_id: string }
  | { readonly user_id: string }
  | { readonly persona: string };

/** One person of a bot, as GET /bots/{bot}/people lists it. */
export interface WirePerson {
  readonly id: string;
  readonly name: string;
  readonly accounts: readonly WireAccount[];
  readonly created_at: string;
  readonly updated_at: string;
}

/** An account seen in the bot's messages and linked to nobody: who the owner may link. */
export interface WireSeenAccount {
  readonly account: WireAccount;
  readonly names: readonly string[];
  readonly sources: readonly string[];
  readonly messages: number;
  readonly last_seen: string;
}

/** GET /bots/{bot}/people. */
export interface PeopleResponse {
  readonly bot: string;
  readonly people: readonly WirePerson[];
  readonly unlinked: readonly WireSeenAccount[];
}

/** POST /bots/{bot}/people. */
export interface CreatePersonRequest {
  readonly name: string;
  readonly accounts: readonly WireAccount[];
}

/** PATCH /bots/{bot}/people/{id}. */
export interface UpdatePersonRequest {
  readonly name?: string;
  readonly add?: readonly WireAccount[];
  readonly remove?: readonly WireAccount[];
}

/** POST /bots/{bot}/link-codes: the account asking for a code; the answer. */
export interface LinkCodeRequest {
  readonly account: WireAccount;
}
export interface LinkCodeResponse {
  readonly code: string;
  readonly expires_at: string;
}

/** POST /bots/{bot}/link-codes/redeem: the code and the account saying it; the answer is the person linked. */
export interface RedeemLinkCodeRequest {
  readonly code: string;
  readonly account: WireAccount;
}

/** POST /bots/{bot}/link-codes/status. */
export interface LinkCodeStatusRequest {
  readonly code: string;
  readonly account: WireAccount;
}

/**
 * What became of a code: `waiting` (not said yet), `redeemed` (said on another account: `person` is who the
 * asking account is now linked to, by id and name, while it still is), `expired` (10 minutes passed unsaid).
 */
export interface LinkCodeStatusResponse {
  readonly status: 'waiting' | 'redeemed' | 'expired';
  readonly expires_at: string;
  readonly redeemed_at?: string;
  readonly person?: { readonly id: string; readonly name: string };
}

/** DELETE /bots/{bot}/people/{id}/accounts. */
export interface UnlinkAccountRequest {
  readonly account: WireAccount;
}
