/** @module One message as the service keeps it between /save and the chunk that stores it. */

/** Who wrote a message: a person, or the agent itself. */
export type SpeakerKind = 'user' | 'self';

/** A saved message, normalized at the HTTP edge (ids are strings, `ts` filled with the arrival time if missing). */
export interface MemoryMessage {
  readonly bot: string;
  readonly source: string;
  readonly messageId: string;
  readonly speakerKind: SpeakerKind;
  readonly text: string;
  /** Unix ms; the arrival time when the client sent none. */
  readonly ts: number;
  /** Platform user id (Discord snowflake, `telegram:42`, …) when known. */
  readonly userId?: string;
  /** Display name sent by the client, used when no alias matches. */
  readonly speakerName?: string;
  readonly channelId?: string;
  readonly guildId?: string;
  /** A direct message: privacy scopes keep DM memories out of other places. */
  readonly isDm?: boolean;
}

/** The part of a bot's config that decides how its messages are named. */
export interface SpeakerConfig {
  readonly selfSpeaker: string;
  /** user id → name, so one person reads as one name across interfaces and SillyTavern. */
  readonly speakerAliases: Readonly<Record<string, string>>;
  /** The bot's people (linked accounts, docs/people.md): a person's name wins over an alias. */
  readonly people?: PeopleNames | undefined;
}

/** The names of a bot's linked people, by the account a message came from. */
export interface PeopleNames {
  /** The person's name for a user message of `source` sent with `userId` (none: by the persona `speakerName`). */
  nameOf(source: string, userId: string | undefined, speakerName: string | undefined): string | undefined;
  /** The person's name for the Discord user `id` (a `<@id>` mention). */
  nameOfDiscordUser(id: string): string | undefined;
  /** The id of the person the user account `account` (`discord:1234`, `telegram:5678`) is linked to. */
  personIdOf(account: string): string | undefined;
}

/** Chunk size rules, in st-qdrant-memory's units (see chunk-planner). */
export interface ChunkSizes {
  readonly minChars: number;
  readonly maxChars: number;
  readonly idleMs: number;
  /**
   * A chunk also closes between two consecutive messages further apart than this by their own `ts` (and
   * always where the UTC day changes), so an imported history is cut where the conversation paused.
   */
  readonly maxGapMs: number;
}

/** The payload of one point, field for field as format.md defines it. */
export interface ChunkPayload {
  text: string;
  speakers: string;
  messageCount: number;
  timestamp: number;
  messageIds: string;
  isChunk: true;
  source?: string;
  channelId?: string;
  guildId?: string;
  /** memory-pool only: set (true) on chunks of a direct-message conversation. */
  isDm?: true;
  /** memory-pool only: who a DM chunk is with (dm-with.ts), so a person's DM recall filters by one keyword. */
  dmWith?: string;
}
