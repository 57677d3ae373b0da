/**
 * @module Confirmed forgets: `/memory forget-me` and `/memory forget-channel` first answer with the count and
 * two buttons; only the person who asked can press them, and only then is anything forgotten. A forget-me by a
 * user linked to a person forgets that person (every linked account, in every source: docs/people.md), and says
 * each account and its count.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  type ButtonInteraction,
  ButtonStyle,
  MessageFlags,
  type RepliableInteraction,
} from 'discord.js';
import type { PersonForgetCount } from '../../../core/operations/person-self-forget.js';
import type { DiscordForget } from '../discord-memory.js';
import type { CommandContext } from './command-context.js';

/** Button ids: `memory:confirm:<kind>:<target id>:<user who asked>`, and `memory:cancel:<user>`. */
const CONFIRM = 'memory:confirm';
const CANCEL = 'memory:cancel';

type ForgetKind = 'user' | 'channel' | 'person';
type Selector = Exclude<DiscordForget, { message_ids: string[] }>;

/** What one forget covers: a person, or a channel with its threads (worked out again when confirmed). */
function selectorsFor(kind: ForgetKind, target: string, context: CommandContext): Selector[] {
  return kind !== 'channel'
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
  /** For a user linked to a person: what forgetting the person removes. */
  whatPerson?: (count: PersonForgetCount) => string,
): Promise<void> {
  const person = kind === 'user' ? await context.memory.countOwnPerson(target) : undefined;
  if (person !== undefined && whatPerson !== undefined) {
    kind = 'person';
    what = () => whatPerson(person);
  }
  const count = person?.total ?? (await countAll(selectorsFor(kind, target, context), context));
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
  if (kind === 'person' && (await forgetPerson(interaction, context, target))) return;
  const selectors = selectorsFor(kind, target, context);
  // Noted first: a back-fill still reading history must not record again what is being forgotten.
  const now = Date.now();
  for (const selector of selectors) {
    const noted = kind === 'channel' ? 'channel' : 'user';
    await context.state.noteForgotten(noted, 'channel_id' in selector ? selector.channel_id : target, now);
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

/** `count messages: discord:1234 (5), telegram:5678 (7)`: each linked account and what it holds. */
export function describePersonCount(count: {
  readonly total: number;
  readonly accounts: PersonForgetCount['accounts'];
}): string {
  const accounts = count.accounts.map((a) => `${a.account} (${a.messages})`).join(', ');
  return `${count.total} message${count.total === 1 ? '' : 's'}: ${accounts}`;
}

/**
 * The confirmed forget-me of a linked person; false when the user is linked to nobody any more (the caller then
 * forgets their Discord account alone, as asked before the link was undone).
 */
async function forgetPerson(
  interaction: ButtonInteraction,
  context: CommandContext,
  userId: string,
): Promise<boolean> {
  const person = await context.memory.countOwnPerson(userId);
  if (person === undefined) return false;
  // Noted first, for each linked Discord account: a back-fill must not record again what is being forgotten.
  const now = Date.now();
  const discordIds = person.person.accounts.flatMap((a) =>
    'discord_user_id' in a ? [a.discord_user_id] : [],
  );
  for (const id of discordIds) await context.state.noteForgotten('user', id, now);
  const done = await context.memory.forgetOwnPerson(userId);
  if (done === undefined) return false;
  await interaction.update({
    content: `Forgotten: ${describePersonCount({ total: done.forgotten.messages_forgotten, accounts: done.accounts })}. They will not be recalled again.`,
    components: [],
  });
  return true;
}
