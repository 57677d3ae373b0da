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
  /** Required: an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 (Ollama); `/chat/completions` is appended. */
  baseUrl: httpUrl('Set the chat API, e.g. http://127.0.0.1:11434/v1 or https://openrouter.ai/api/v1.'),
  /** Required: the chat model, e.g. llama3.1 or gpt-4o-mini. */
  model: text('Set the chat model name, e.g. llama3.1.'),
  /** Optional: sent as a bearer token. Never logged. */
  apiKey: secret(1, 'Set the chat API key, or remove apiKey.').optional(),
  /** A SillyTavern character card: the PNG with embedded V2/V3 JSON, or the JSON; relative to the config file. */
  card: text('Set the path of a character card, e.g. ./cards/mythos.png.').optional(),
  /** A plain system prompt, used when there is no card (or before the card's). */
  systemPrompt: text('Write the persona as a system prompt.').optional(),
  /** Default []: channels where it answers every message; elsewhere only when mentioned, and in DMs. */
  replyChannels: snowflakes('channel'),
  /** Default 20: recent channel messages sent as context. */
  contextMessages: integer(0, 100, 'Set how many recent messages to send, e.g. 20.').default(20),
  /**
   * Default unset (the bot's `retrieve.maxChars`): the most characters of recalled memories in a reply's prompt,
   * whole memories only, so the prompt fits the chat model's context.
   */
  recallMaxChars: integer(1, 100_000, 'Set the most characters of memories per reply, e.g. 2000.').optional(),
  /** Default 60000: how long a reply may take before it is given up. */
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
  /** Required (env DISCORD_TOKEN fills it): the bot account's token, from the developer portal. Never logged. */
  token: secret(
    1,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's placeholder, shown as the user types it
    'Set it to the bot token (Developer Portal → Bot → Reset Token), e.g. ${DISCORD_TOKEN}, or set env DISCORD_TOKEN.',
  ),
  /** Default: the only configured bot. The memory-pool bot whose memory Discord messages go into. */
  bot: text('Name one of the bots under bots:.').optional(),
  /**
   * Default: the bot account's own user id. Whose messages are recorded as `self` (the companion): set it to
   * another bot's id when the companion replies through another framework and this account only records (so
   * not with `companion`, which replies as this account).
   */
  selfUserId: snowflake.optional(),
  /** Default []: guilds (servers) recorded whole, every channel and thread in them. */
  guilds: snowflakes('guild'),
  /** Default []: channels recorded (their threads too). Nothing is recorded outside guilds and channels. */
  channels: snowflakes('channel'),
  /** Default []: channels never recorded, even in an allowed guild; wins over every allow (threads inherit). */
  denyChannels: snowflakes('channel'),
  /** Default false: direct messages to the bot are recorded only when true. */
  dms: z.boolean({ error: 'expected true or false. Set dms: true to record direct messages' }).default(false),
  /** Default none: messages of other bots and webhooks: none, only those that mention this bot, or all. */
  otherBots: oneOf(
    ['none', 'mentions', 'all'],
    'Pick which messages of other bots and webhooks are recorded.',
  ).default('none'),
  /** Default false: when the bot is removed from a guild (not an outage), forget everything recorded there. */
  purgeOnLeave: z
    .boolean({ error: 'expected true or false. Set purgeOnLeave: true to forget a guild the bot leaves' })
    .default(false),
  /**
   * Default 0: on first sight of an allowed channel, also record up to this many of its recent messages
   * (read 100 at a time, one page a second, one channel after another, well inside Discord's rate limits).
   * Each channel is back-filled once; `/memory channel allow` back-fills the channel it allows.
   */
  backfill: integer(0, 10_000, 'Set how many recent messages to record per channel, e.g. 200, or 0.').default(
    0,
  ),
  /**
   * Default guild: how far what Discord recalls (`/memory recall`, companion replies) reaches, narrowing the
   * bot's `retrieve.scope` (never widening it). `guild`: in a server, that server's memories plus shared ones
   * (no server and not a DM: SillyTavern's, the API's); in a DM, that DM plus shared ones. `channel`: likewise
   * per channel. `dm-private`: DMs stay in their own DM, other servers are recalled. `global`: only the bot's
   * `retrieve.scope` applies (a DM could then be recalled in a server).
   */
  recallScope: oneOf(
    ['guild', 'channel', 'dm-private', 'global'],
    'Pick how far Discord recall reaches; guild keeps DMs and other servers out.',
  ).default('guild'),
  /** Optional (off by default): reply as the persona when mentioned, in DMs, and in replyChannels. */
  companion: companionSchema.optional(),
  /**
   * Default guild: register /memory in each guild the bot is in (at once), globally (up to an hour), or not.
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
