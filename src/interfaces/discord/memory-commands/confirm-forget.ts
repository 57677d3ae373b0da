/**
 * @module Confirmed forgets: `/memory forget-me` and `/memory forget-channel` first answer with the count and
 * two buttons; only the person who asked can press them, and only then is anything forgotten.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  type ButtonInteraction,
  ButtonStyle,
  MessageFlags,
  type RepliableInteraction,
} from 'discord.js';
import type { DiscordForget } from '../discord-memory.js';
import type { CommandContext } from './command-context.js';

/** Button ids: `memory:confirm:<kind>:<target id>:<user who asked>`, and `memory:cancel:<user>`. */
const CONFIRM = 'memory:confirm';
const CANCEL = 'memory:cancel';

type ForgetKind = 'user' | 'channel';
type Selector = Exclude<DiscordForget, { message_ids: string[] }>;

/** What one forget covers: a person, or a channel with its threads (worked out again when confirmed). */
function selectorsFor(kind: ForgetKind, target: string, context: CommandContext): Selector[] {
  return kind === 'user'
    ? [{ discord_user_id: target }]
    : context.channelWithThreads(target).map((channelId) => ({ channel_id: channelId }));
}

async function countAll(selectors: readonly Selector[], context: CommandContext): Promise<number> {
  let sum = 0;
  for (const selector of selectors) sum += await context.memory.count(selector);
  return sum;
}

/** Answers (ephemerally) with what would be forgotten and the buttons that do it. */
export async function askToForget(
  interaction: RepliableInteraction,
  context: CommandContext,
  kind: ForgetKind,
  target: string,
  what: (count: number) => string,
): Promise<void> {
  const count = await countAll(selectorsFor(kind, target, context), context);
  if (count === 0) {
    await interaction.reply({ content: 'Nothing recorded to forget.', flags: MessageFlags.Ephemeral });
    return;
  }
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(`${CONFIRM}:${kind}:${target}:${interaction.user.id}`)
      .setLabel(`Forget ${count} message${count === 1 ? '' : 's'}`)
      .setStyle(ButtonStyle.Danger),
    new ButtonBuilder()
      .setCustomId(`${CANCEL}:${interaction.user.id}`)
      .setLabel('Cancel')
      .setStyle(ButtonStyle.Secondary),
  );
  await interaction.reply({
    content: `${what(count)} This cannot be undone.`,
    components: [row],
    flags: MessageFlags.Ephemeral,
  });
}

/** Whether a button is one of these; `handleForgetButton` then answers it. */
export const isForgetButton = (customId: string): boolean =>
  customId.startsWith(`${CONFIRM}:`) || customId.startsWith(`${CANCEL}:`);

export async function handleForgetButton(
  interaction: ButtonInteraction,
  context: CommandContext,
): Promise<void> {
  const parts = interaction.customId.split(':');
  const askedBy = parts.at(-1);
  if (askedBy !== interaction.user.id) {
    await interaction.reply({
      content: 'Only the person who asked can answer this.',
      flags: MessageFlags.Ephemeral,
    });
    return;
  }
  if (interaction.customId.startsWith(`${CANCEL}:`)) {
    await interaction.update({ content: 'Cancelled: nothing was forgotten.', components: [] });
    return;
  }
  const [, , kind, target] = parts as [string, string, ForgetKind, string, string];
  const selectors = selectorsFor(kind, target, context);
  // Noted first: a back-fill still reading history must not record again what is being forgotten.
  const now = Date.now();
  for (const selector of selectors) {
    await context.state.noteForgotten(kind, 'channel_id' in selector ? selector.channel_id : target, now);
  }
  let forgotten = 0;
  for (const selector of selectors) {
    // A thread with nothing recorded is left alone (no empty forget in the log).
    if (selectors.length > 1 && (await context.memory.count(selector)) === 0) continue;
    forgotten += (await context.memory.forget(selector)).messages_forgotten;
  }
  await interaction.update({
    content: `Forgotten: ${forgotten} message${forgotten === 1 ? '' : 's'}. They will not be recalled again.`,
    components: [],
  });
}
