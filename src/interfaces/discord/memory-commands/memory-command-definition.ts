/** @module The `/memory` slash command as Discord registers it: every subcommand and option, defined once. */
import {
  ChannelType,
  InteractionContextType,
  SlashCommandBuilder,
  type SlashCommandSubcommandBuilder,
} from 'discord.js';

export const MEMORY_COMMAND = 'memory';

const TEXT_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum] as const;

/** `/memory channel allow|deny <channel>`. */
const channelRule = (name: string, description: string) => (sub: SlashCommandSubcommandBuilder) =>
  sub
    .setName(name)
    .setDescription(description)
    .addChannelOption((option) =>
      option
        .setName('channel')
        .setDescription('The channel')
        .setRequired(true)
        .addChannelTypes(...TEXT_CHANNELS),
    );

/** The JSON Discord stores for `/memory`. */
export function buildMemoryCommand() {
  return new SlashCommandBuilder()
    .setName(MEMORY_COMMAND)
    .setDescription('What the companion remembers, and your control over it')
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .addSubcommand((sub) =>
      sub
        .setName('recall')
        .setDescription('What the companion remembers about something (only you see the answer)')
        .addStringOption((option) =>
          option
            .setName('query')
            .setDescription('What to remember about')
            .setRequired(true)
            .setMaxLength(500),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('forget-me')
        .setDescription("Forget everything you wrote, and the companion's replies in your DMs"),
    )
    .addSubcommand((sub) =>
      sub
        .setName('forget')
        .setDescription('Forget one message')
        .addStringOption((option) =>
          option.setName('link').setDescription('The message link (⋯ → Copy Message Link)').setRequired(true),
        ),
    )
    .addSubcommand((sub) =>
      sub.setName('opt-out').setDescription('Stop recording what you write from now on'),
    )
    .addSubcommand((sub) => sub.setName('opt-in').setDescription('Record what you write again'))
    .addSubcommand((sub) => sub.setName('stats').setDescription('How much the companion remembers'))
    .addSubcommand((sub) =>
      sub
        .setName('link')
        .setDescription('Link your accounts on other apps into one person (only you see the answer)')
        .addStringOption((option) =>
          option
            .setName('code')
            .setDescription('The code your other account was given; leave out to get a code here')
            .setMaxLength(40),
        ),
    )
    .addSubcommandGroup((group) =>
      group
        .setName('channel')
        .setDescription('Which channels are recorded (Manage Server)')
        .addSubcommand(channelRule('allow', 'Record this channel and its threads'))
        .addSubcommand(channelRule('deny', 'Never record this channel or its threads')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('forget-channel')
        .setDescription('Forget everything recorded in a channel (Manage Server)')
        .addChannelOption((option) =>
          option
            .setName('channel')
            .setDescription('Default: this channel')
            .addChannelTypes(...TEXT_CHANNELS),
        ),
    )
    .toJSON();
}
