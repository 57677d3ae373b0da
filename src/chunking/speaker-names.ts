/** @module How a message's speaker is named in chunk text, so one person reads as one name across writers. */
import type { MemoryMessage, PeopleNames, SpeakerConfig } from './memory-message.js';

/** st-qdrant-memory's name for a user it knows nothing about (its persona fallback). */
export const FALLBACK_USER_NAME = 'User';

// Discord user mentions: `<@id>`, and `<@!id>` for the older nickname form. Role (`<@&id>`) and channel
// (`<#id>`) mentions are not people, so they are left alone.
const DISCORD_USER_MENTION = /<@!?(\d+)>/g;

/** Looks up an alias by own key only, so ids like `constructor` never resolve to Object's prototype. */
function findAlias(
  aliases: Readonly<Record<string, string>>,
  userId: string | undefined,
): string | undefined {
  if (userId === undefined || !Object.hasOwn(aliases, userId)) return undefined;
  const alias = aliases[userId]?.trim();
  return alias ? alias : undefined;
}

/**
 * Names a message's speaker: the agent is always `selfSpeaker`; a person is the name of the person their
 * account is linked to, else their alias (by user id), else the name their client sent, else `User`. Links
 * and aliases win so a person keeps one name across interfaces.
 */
export function resolveSpeaker(message: MemoryMessage, config: SpeakerConfig): string {
  if (message.speakerKind === 'self') return config.selfSpeaker;
  const person = config.people?.nameOf(message.source, message.userId, message.speakerName);
  if (person) return person;
  const alias = findAlias(config.speakerAliases, message.userId);
  if (alias) return alias;
  const sent = message.speakerName?.trim();
  return sent ? sent : FALLBACK_USER_NAME;
}

/**
 * Replaces Discord mentions of linked or aliased user ids with their names; mentions of unknown ids stay as
 * sent.
 */
export function rewriteMentions(
  text: string,
  aliases: Readonly<Record<string, string>>,
  people?: PeopleNames,
): string {
  return text.replace(
    DISCORD_USER_MENTION,
    (mention, id: string) => people?.nameOfDiscordUser(id) ?? findAlias(aliases, id) ?? mention,
  );
}
