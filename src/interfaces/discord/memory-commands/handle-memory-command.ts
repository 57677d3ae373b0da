/** @module Answers each `/memory` subcommand; every answer is ephemeral (only the caller sees it). */
import { type ChatInputCommandInteraction, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { listReadableChannels } from '../readable-channels.js';
import { recallWhereAsked } from '../recall-where-asked.js';
import type { CommandContext } from './command-context.js';
import { askToForget, describePersonCount } from './confirm-forget.js';
import { linkAccount } from './link-account.js';
import { parseMessageLink } from './parse-message-link.js';

const ephemeral = (content: string) => ({ content, flags: MessageFlags.Ephemeral }) as const;

/** Discord's limit for one message. */
const MAX_REPLY_CHARS = 2000;

function truncate(text: string): string {
  return text.length <= MAX_REPLY_CHARS ? text : `${text.slice(0, MAX_REPLY_CHARS - 1)}…`;
}

export async function handleMemoryCommand(
  interaction: ChatInputCommandInteraction,
  context: CommandContext,
): Promise<void> {
  const group = interaction.options.getSubcommandGroup(false);
  const sub = interaction.options.getSubcommand();
  if (group === 'channel' || sub === 'forget-channel') {
    if (!interaction.inGuild() || !interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) {
      await interaction.reply(ephemeral('This needs the Manage Server permission, in a server.'));
      return;
    }
  }
  const self = context.memory.bot.selfSpeaker;
  switch (group === null ? sub : `${group} ${sub}`) {
    case 'recall':
      return recall(interaction, context);
    case 'forget-me':
      return askToForget(
        interaction,
        context,
        'user',
        interaction.user.id,
        (count) =>
          `${self} remembers ${count} message${count === 1 ? '' : 's'} of yours (with its replies in your DMs).`,
        (person) =>
          `You are linked as ${person.person.name}: ${self} remembers ${describePersonCount(person)}, every account ` +
          `linked to you, on every platform (with its replies in your DMs).`,
      );
    case 'forget':
      return forgetOne(interaction, context);
    case 'opt-out':
      await context.state.setOptedOut(interaction.user.id, true, Date.now());
      await interaction.reply(
        ephemeral(
          `${self} no longer records what you write. What it already remembers stays until you run /memory forget-me.`,
        ),
      );
      return;
    case 'opt-in':
      await context.state.setOptedOut(interaction.user.id, false, Date.now());
      await interaction.reply(ephemeral(`${self} records what you write again, where it records.`));
      return;
    case 'stats': {
      const stats = await context.memory.stats();
      const fromDiscord = stats.messages.bySource.discord ?? 0;
      const yours = await context.memory.count({ discord_user_id: interaction.user.id });
      const optedOut = context.state.isOptedOut(interaction.user.id) ? ' You are opted out.' : '';
      await interaction.reply(
        ephemeral(
          `${self} remembers ${fromDiscord} message${fromDiscord === 1 ? '' : 's'} from Discord, ${yours} of them yours ` +
            `(${stats.points.total} memories in all, ${stats.messages.pending} waiting to be stored).${optedOut}`,
        ),
      );
      return;
    }
    case 'link':
      return linkAccount(interaction, context);
    case 'channel allow':
    case 'channel deny': {
      const channel = interaction.options.getChannel('channel', true);
      await context.state.setChannelRule(channel.id, sub === 'allow' ? 'allow' : 'deny');
      if (sub === 'deny') {
        await interaction.reply(ephemeral(`<#${channel.id}> and its threads are never recorded.`));
        return;
      }
      const backfilling = context.backfillChannel(channel.id)
        ? ` Up to its last ${context.config.backfill} messages are being recorded too (not those of people who opted out).`
        : '';
      await interaction.reply(
        ephemeral(`<#${channel.id}> and its threads are recorded from now on.${backfilling}`),
      );
      return;
    }
    case 'forget-channel': {
      const channelId = interaction.options.getChannel('channel')?.id ?? interaction.channelId;
      return askToForget(
        interaction,
        context,
        'channel',
        channelId,
        (count) =>
          `${self} remembers ${count} message${count === 1 ? '' : 's'} from <#${channelId}> and its threads.`,
      );
    }
    default:
      await interaction.reply(
        ephemeral('Unknown /memory command: re-invite the bot to refresh its commands.'),
      );
  }
}

/**
 * Recall private to where it is asked (`discord.recallScope`): this server, or this DM, plus what is shared;
 * in a server, not what was said in channels the asker may not view. The answer is ephemeral, so the asker
 * is its only reader.
 */
async function recall(interaction: ChatInputCommandInteraction, context: CommandContext): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  // Outside a cached server (a DM, or a server discord.js does not hold) there is no list: a DM needs none,
  // and recall in an unknown server keeps to its channel.
  const readable = interaction.inCachedGuild()
    ? listReadableChannels(interaction.guild, [interaction.member], () =>
        context.state.publicThreadsByParent(),
      )
    : undefined;
  const response = await recallWhereAsked(
    context.memory,
    context.config.recallScope,
    { guildId: interaction.guildId, channelId: interaction.channelId, askerId: interaction.user.id },
    { query_text: interaction.options.getString('query', true), now: interaction.createdTimestamp },
    readable,
  );
  await interaction.editReply(
    truncate(response.formatted || `${context.memory.bot.selfSpeaker} remembers nothing about that here.`),
  );
}

/**
 * Forgets one linked message: your own, any message in your DM with the bot, or (with Manage Messages in the
 * linked channel) anyone's in this server.
 */
async function forgetOne(interaction: ChatInputCommandInteraction, context: CommandContext): Promise<void> {
  const link = parseMessageLink(interaction.options.getString('link', true));
  if (link === undefined) {
    await interaction.reply(
      ephemeral('That is not a message link: use ⋯ → Copy Message Link on the message.'),
    );
    return;
  }
  // A link's guild and channel are typed by the caller and message ids are global, so every right is
  // checked against the message as Discord serves it from the linked channel, never against the link.
  const channel = await interaction.client.channels.fetch(link.channelId).catch(() => null);
  const message =
    channel?.isTextBased() === true
      ? await channel.messages.fetch(link.messageId).catch(() => undefined)
      : undefined;
  if (message === undefined || channel === null) {
    await interaction.reply(
      ephemeral(
        'I cannot find that message in that channel: copy the link from the message itself (⋯ → Copy Message Link).',
      ),
    );
    return;
  }
  const own = message.author.id === interaction.user.id;
  const inOwnDm = interaction.guildId === null && channel.id === interaction.channelId && channel.isDMBased();
  // Manage Messages where the message is: Discord computed the caller's permissions only for the channel the
  // command is typed in; any other channel's come from the cached roles and that channel's overwrites.
  const moderates =
    interaction.inCachedGuild() &&
    !channel.isDMBased() &&
    channel.guildId === interaction.guildId &&
    (channel.id === interaction.channelId
      ? interaction.memberPermissions
      : channel.permissionsFor(interaction.member)
    )?.has(PermissionFlagsBits.ManageMessages) === true;
  if (!own && !inOwnDm && !moderates) {
    await interaction.reply(
      ephemeral(
        'You can forget your own messages (or, with Manage Messages in its channel, any in this server).',
      ),
    );
    return;
  }
  const result = await context.memory.forget({ message_ids: [link.messageId] });
  await interaction.reply(
    ephemeral(
      result.messages_forgotten > 0
        ? 'Forgotten: it will not be recalled again.'
        : 'Forgotten (it was not remembered anyway).',
    ),
  );
}
