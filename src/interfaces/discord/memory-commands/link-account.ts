/**
 * @module `/memory link`: without a code, a one-use code for the caller's Discord account, to say on another
 * interface (Hermes `memory_link`, MCP `link`, or `/memory link code:` on another Discord account); with
 * `code:`, links the caller's account with the one that asked for it (docs/people.md). Every
 * answer is ephemeral: a code shown in a channel could be redeemed by whoever reads it first.
 */
import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { MemoryPoolError } from '../../../errors/memory-pool-error.js';
import type { LinkCodeStatusResponse, WireAccount } from '../../../wire/people.js';
import type { CommandContext } from './command-context.js';

export async function linkAccount(
  interaction: ChatInputCommandInteraction,
  context: CommandContext,
): Promise<void> {
  const code = interaction.options.getString('code');
  const userId = interaction.user.id;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  try {
    if (code === null) {
      const given = await context.memory.createLinkCode(userId);
      const expires = Math.floor(Date.parse(given.expires_at) / 1000);
      await interaction.editReply(
        `Your link code: **${given.code}** (works once, until <t:${expires}:t>). Say it from your other account: ` +
          '`/memory link code:` on Discord, or ask the companion on another app to link it. Keep it to yourself.',
      );
      // This answer then follows the code: edited once it is said (or expires), so the asker learns it here.
      context.linkCodes.watch(
        () => context.memory.linkCodeStatus(given.code, userId),
        (status) =>
          interaction.editReply(describeCodeOutcome(given.code, status, context.memory.bot.selfSpeaker)),
      );
      return;
    }
    const person = await context.memory.redeemLinkCode(code, userId);
    const others = person.accounts.filter((a) => !('discord_user_id' in a && a.discord_user_id === userId));
    await interaction.editReply(
      `Linked: ${context.memory.bot.selfSpeaker} now knows you as one person, **${person.name}**, ` +
        `here and as ${others.map(describeAccount).join(', ') || 'your other account'}.`,
    );
  } catch (error) {
    const words = refusalInWords(error);
    if (words === undefined) throw error;
    await interaction.editReply(words);
  }
}

/** A refusal the caller can act on, in plain words; anything else is the handler's generic failure. */
function refusalInWords(error: unknown): string | undefined {
  if (!(error instanceof MemoryPoolError)) return undefined;
  if (error.code === 'too_many_attempts') {
    // `account`: this user's own wrong codes; otherwise the wrong codes of everyone linking through Discord.
    return error.field === 'account'
      ? 'Too many wrong codes from your account within an hour: wait an hour, then ask for a new code.'
      : 'Too many wrong codes were tried on Discord within an hour: wait an hour, then try again.';
  }
  if (error.code === 'account_linked') {
    // The service names nobody to an interface key (only the owner sees who holds an account).
    return "One of these accounts is already linked to someone else: merging two people is the owner's call. Ask the owner to unlink it first.";
  }
  if (error.status === 400 && error.field === 'code') {
    const reason = stripField(error.message).replace(/^the code /, '');
    return reason.startsWith('expected') ? `That is not a link code: ${reason}.` : `That code ${reason}.`;
  }
  return undefined;
}

/** The service's messages start with the field they name (`code: ...`); a person typing a command needs none. */
function stripField(message: string): string {
  return message.replace(/^[a-z_]+: /, '');
}

function describeAccount(account: WireAccount): string {
  if ('discord_user_id' in account) return `<@${account.discord_user_id}>`;
  if ('user_id' in account) return account.user_id;
  return `the persona "${account.persona}"`;
}

/** What became of a code this user asked for, in the words its answer is edited to. */
function describeCodeOutcome(code: string, status: LinkCodeStatusResponse, companion: string): string {
  if (status.status === 'expired') {
    return `Your link code **${code}** expired without being said. \`/memory link\` gives a new one.`;
  }
  const who = status.person === undefined ? 'one person' : `one person, **${status.person.name}**`;
  return (
    `Your link code **${code}** was said from your other account: ${companion} now knows you as ${who}. ` +
    'If you did not say it yourself, someone else has linked their account to you: ask the owner to unlink it.'
  );
}
