/** @module How a message's speaker is named in chunk text, so one person reads as one name across writers. */
import type { MemoryMessage, SpeakerConfig } from './memory-message.js';

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
 * Names a message's speaker: the agent is always `selfSpeaker`; a person is their alias (by user id), else
 * the name their client sent, else `User`. Aliases win so a person keeps one name across interfaces.
 */
export function resolveSpeaker(message: MemoryMessage, config: SpeakerConfig): string {
  if (message.speakerKind === 'self') return config.selfSpeaker;
  const alias = findAlias(config.speakerAliases, message.userId);
  if (alias) return alias;
  const sent = message.speakerName?.trim();
  return sent ? sent : FALLBACK_USER_NAME;
}

/** Replaces Discord mentions of aliased user ids with their names; mentions of unknown ids stay as sent. */
export function rewriteMentions(text: string, aliases: Readonly<Record<string, string>>): string {
  return text.replace(DISCORD_USER_MENTION, (mention, id: string) => findAlias(aliases, id) ?? mention);
}
