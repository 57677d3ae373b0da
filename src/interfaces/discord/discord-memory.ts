/** @module What the Discord interface needs of memory-pool: save, forget, count and recall for one bot. */
import type { BotConfig } from '../../config/config-types.js';
import type { PersonForgetCount } from '../../core/operations/person-self-forget.js';
import type { ForgetResponse } from '../../wire/forget-request.js';
import type { LinkCodeResponse, LinkCodeStatusResponse, WirePerson } from '../../wire/people.js';
import type { RetrieveRequest, RetrieveResponse } from '../../wire/retrieve-request.js';
import type { SaveMessage, SaveResponse } from '../../wire/save-request.js';
import type { BotStatsResponse } from '../../wire/stats-response.js';

/** A recorded message as the journal holds it: its id, its time (Discord's, from the snowflake) and saved text. */
export interface RecordedMessage {
  readonly id: string;
  readonly ts: number;
  readonly text: string;
}

/** One forget selector of `POST /forget`, always within the `discord` source. */
export type DiscordForget =
  | { readonly message_ids: string[] }
  | { readonly discord_user_id: string }
  | { readonly channel_id: string }
  | { readonly guild_id: string };

/** The service's own operations for the bot Discord records for; the in-process one is the service's. */
export interface DiscordMemory {
  readonly bot: BotConfig;
  /** Exactly `POST /save` with source `discord`. */
  save(messages: readonly SaveMessage[]): Promise<SaveResponse>;
  /** Exactly `POST /forget`, limited to what the `discord` source saved. */
  forget(selector: DiscordForget): Promise<ForgetResponse>;
  /** How many recorded messages a forget would remove (what a confirmation button states). */
  count(selector: Exclude<DiscordForget, { message_ids: string[] }>): Promise<number>;
  /** Which of these message ids are recorded (a delete elsewhere than where it records now still forgets them). */
  recordedAmong(messageIds: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * What Discord recorded in one channel (or thread) with its time in [fromTs, toTs], oldest first: the gap
   * back-fill forgets those of them that the channel's history no longer holds.
   */
  recordedInChannel(channelId: string, fromTs: number, toTs: number): Promise<readonly RecordedMessage[]>;
  /** Exactly `POST /retrieve`. */
  retrieve(request: Omit<RetrieveRequest, 'bot'>): Promise<RetrieveResponse>;
  stats(): Promise<BotStatsResponse>;
  /** Exactly `POST /bots/{bot}/link-codes` for this Discord user: a one-use code to say on another interface. */
  createLinkCode(discordUserId: string): Promise<LinkCodeResponse>;
  /** Exactly `POST /bots/{bot}/link-codes/status` for this Discord user's own code: what became of it. */
  linkCodeStatus(code: string, discordUserId: string): Promise<LinkCodeStatusResponse>;
  /** Exactly `POST /bots/{bot}/link-codes/redeem`: links this Discord user with the account that asked for `code`. */
  redeemLinkCode(code: string, discordUserId: string): Promise<WirePerson>;
  /** The Discord user ids linked to a person of the bot: their mentions stay `<@id>` for the person's name. */
  linkedDiscordUserIds(): Promise<readonly string[]>;
  /** What `/memory forget-me` by this user forgets when they are linked to a person (every linked account). */
  countOwnPerson(discordUserId: string): Promise<PersonForgetCount | undefined>;
  /** That forget, asked by the person themself; undefined (nothing forgotten) when linked to nobody now. */
  forgetOwnPerson(
    discordUserId: string,
  ): Promise<(PersonForgetCount & { readonly forgotten: ForgetResponse }) | undefined>;
}
