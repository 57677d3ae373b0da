/** @module The wire shapes of people: an account as a client names it, a person and the owner's requests. */

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

/** DELETE /bots/{bot}/people/{id}/accounts. */
export interface UnlinkAccountRequest {
  readonly account: WireAccount;
}
