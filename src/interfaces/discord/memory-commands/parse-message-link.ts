/** @module Reads a Discord message link (⋯ → Copy Message Link) into its guild, channel and message ids. */

export interface MessageLink {
  /** Absent for a link into a DM (`@me`). */
  readonly guildId?: string;
  readonly channelId: string;
  readonly messageId: string;
}

// discord.com, and the canary/ptb clients' hosts, which copy links with their own subdomain.
const LINK = /^https:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/channels\/(@me|\d+)\/(\d+)\/(\d+)\/?$/;

/** The ids of a message link, or undefined when the text is not one. */
export function parseMessageLink(text: string): MessageLink | undefined {
  const match = LINK.exec(text.trim());
  if (match === null) return undefined;
  const [, guild, channelId, messageId] = match as unknown as [string, string, string, string];
  return { ...(guild === '@me' ? {} : { guildId: guild }), channelId, messageId };
}
