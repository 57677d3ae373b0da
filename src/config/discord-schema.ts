/**
 * @module The `discord:` section: the Discord bot account `memory-pool serve` connects to the pool, what it may
 * record, and how its slash commands are registered. Without the section no Discord connection is made.
 */
import { z } from 'zod';
import type { ConfigProblem } from './config-problems.js';
import { httpUrl, integer, oneOf, section, secret, text } from './config-fields.js';

/** Discord ids are 64-bit snowflakes, kept as strings (the YAML reader keeps unquoted long ids exact). */
const snowflake = z
  .string({ error: 'expected a Discord id, e.g. "705512345678901234" (right-click → Copy ID)' })
  .regex(
    /^\d{15,20}$/,
    'expected a Discord id: 15 to 20 digits, e.g. "705512345678901234" (right-click → Copy ID)',
  );

const snowflakes = (what: string) =>
  z
    .array(snowflake, { error: `expected a list of ${what} ids. Write each as - "705512345678901234"` })
    .default([]);

/** Companion mode: the bot also replies as the persona, with the pool's memories in its prompt. */
const companionSchema = section({
  /**
   * An OpenAI-compatible chat API (Ollama, LM Studio, OpenRouter, OpenAI); `/chat/completions` is appended.
   * E.g. http://127.0.0.1:11434/v1 (Ollama).
   * @default required
   */
  baseUrl: httpUrl('Set the chat API, e.g. http://127.0.0.1:11434/v1 or https://openrouter.ai/api/v1.'),
  /**
   * The chat model. E.g. llama3.1 or gpt-4o-mini.
   * @default required
   */
  model: text('Set the chat model name, e.g. llama3.1.'),
  /** Sent as a bearer token; never logged. */
  apiKey: secret(1, 'Set the chat API key, or remove apiKey.').optional(),
  /**
   * A SillyTavern character card, the PNG (embedded V2/V3 JSON) or the JSON; relative to the config file.
   * Card or `systemPrompt` is required.
   */
  card: text('Set the path of a character card, e.g. ./cards/mythos.png.').optional(),
  /** A plain persona prompt (before the card's when both are set). */
  systemPrompt: text('Write the persona as a system prompt.').optional(),
  /** Channels where it answers every message (elsewhere only when mentioned, and in DMs). */
  replyChannels: snowflakes('channel'),
  /** Recent channel messages sent with the prompt, 0-100. */
  contextMessages: integer(0, 100, 'Set how many recent messages to send, e.g. 20.').default(20),
  /**
   * The most characters of recalled memories in a reply's prompt (whole memories only), so the prompt fits the
   * chat model's context. Unset: the bot's `retrieve.maxChars`.
   */
  recallMaxChars: integer(1, 100_000, 'Set the most characters of memories per reply, e.g. 2000.').optional(),
  /** How long one reply may take. */
  timeoutMs: integer(1000, 600_000, 'Set milliseconds, e.g. 60000.').default(60_000),
}).superRefine((companion, ctx) => {
  if (companion.card === undefined && companion.systemPrompt === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['card'],
      message: 'a companion needs a persona. Set card (a character card) or systemPrompt',
    });
  }
});

export const discordSchema = section({
  /**
   * The bot token (Developer Portal → Bot). Never logged; `${DISCORD_TOKEN}` or the variable alone.
   * @default required
   */
  token: secret(
    1,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's placeholder, shown as the user types it
    'Set it to the bot token (Developer Portal → Bot → Reset Token), e.g. ${DISCORD_TOKEN}, or set env DISCORD_TOKEN.',
  ),
  /**
   * The memory-pool bot whose memory Discord messages go into; required with several bots.
   * @default the only bot
   */
  bot: text('Name one of the bots under bots:.').optional(),
  /**
   * Whose messages are recorded as `self`: another bot's id when the companion replies through another
   * framework. Refused with `companion`, which replies as this account.
   * @default the account's own id
   */
  selfUserId: snowflake.optional(),
  /** Guild (server) ids recorded whole. Quote ids. Every channel and thread in them. */
  guilds: snowflakes('guild'),
  /** Channel ids recorded; their threads inherit. Nothing outside `guilds` and `channels` is recorded. */
  channels: snowflakes('channel'),
  /** Channel ids never recorded (nor their threads), even in an allowed guild: the deny-list always wins. */
  denyChannels: snowflakes('channel'),
  /** Record direct messages to the bot. */
  dms: z.boolean({ error: 'expected true or false. Set dms: true to record direct messages' }).default(false),
  /**
   * Messages of other bots and webhooks: `none`, `mentions` (only those that mention this bot or the
   * `selfUserId` companion) or `all`.
   */
  otherBots: oneOf(
    ['none', 'mentions', 'all'],
    'Pick which messages of other bots and webhooks are recorded.',
  ).default('none'),
  /** When the bot is removed from a guild (not an outage), forget everything recorded there. */
  purgeOnLeave: z
    .boolean({ error: 'expected true or false. Set purgeOnLeave: true to forget a guild the bot leaves' })
    .default(false),
  /**
   * On first sight of an allowed channel (also one `/memory channel allow` allows), also record up to this
   * many of its recent messages (100 a second at most, one channel after another); each channel once. What
   * recorded channels received while the bot was away (a restart, a replica taking over) is read whatever
   * this says.
   */
  backfill: integer(0, 10_000, 'Set how many recent messages to record per channel, e.g. 200, or 0.').default(
    0,
  ),
  /**
   * How far Discord's own recall (`/memory recall`, companion replies) reaches; narrows the bot's
   * `retrieve.scope`, never widens it. `guild`: in a server, that server's memories plus shared ones (no
   * server, not a DM: SillyTavern's, the API's); in a DM, that DM plus shared ones. `channel`: likewise per
   * channel. `dm-private`: DMs stay in their DM, other servers are recalled. `global`: only `retrieve.scope`
   * applies. In a server, that server's memories come only from the channels the readers may read, at any
   * scope (docs/interfaces.md, "What is recalled where"). With `global` a DM could be recalled in a server.
   */
  recallScope: oneOf(
    ['guild', 'channel', 'dm-private', 'global'],
    'Pick how far Discord recall reaches; guild keeps DMs and other servers out.',
  ).default('guild'),
  /**
   * Companion mode: also reply as the persona when mentioned, in DMs and in `replyChannels`
   * (docs/interfaces.md, Discord).
   * @default absent: record only
   */
  companion: companionSchema.optional(),
  /**
   * Where `/memory` is registered: in each guild (at once), `global` (Discord takes up to an hour; also
   * removes the per-guild `/memory` an earlier `guild` left), or `off` (registers and removes nothing).
   * `serve --discord-commands` overrides it.
   */
  commands: oneOf(
    ['guild', 'global', 'off'],
    'Pick where the /memory slash commands are registered.',
  ).default('guild'),
}).superRefine((discord, ctx) => {
  // The companion replies only as this account; another bot as self would leave it never replying.
  if (discord.companion !== undefined && discord.selfUserId !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['selfUserId'],
      message:
        'is for recording a companion that another framework replies through, and companion makes this bot account reply itself (already self). Remove selfUserId, or remove companion to let the other bot reply',
    });
  }
});

/** The section's cross-key rule: it names a configured bot, or there is only one. */
export function checkDiscordBot(
  discord: { readonly bot?: string | undefined } | undefined,
  botNames: readonly string[],
): ConfigProblem[] {
  if (discord === undefined) return [];
  if (discord.bot === undefined) {
    return botNames.length === 1
      ? []
      : [
          {
            path: 'discord.bot',
            message: `is required with several bots. Name one of ${botNames.join(', ')}`,
          },
        ];
  }
  return botNames.includes(discord.bot)
    ? []
    : [
        {
          path: 'discord.bot',
          message: `names the bot "${discord.bot}", which is not configured. Use one of ${botNames.join(', ')}`,
        },
      ];
}
