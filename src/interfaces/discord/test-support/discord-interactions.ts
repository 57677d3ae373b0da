/** @module INTERACTION_CREATE payloads for `/memory` and its buttons, and a wait for the bot's answer to each. */
import assert from 'node:assert/strict';
import type { DiscordHarness } from './discord-harness.js';
import { BOT_USER, GENERAL, GUILD, type HELEN, messagePayload } from './discord-harness.js';
import type { RecordedCall } from './fake-discord.js';

export interface Caller {
  readonly user: typeof HELEN;
  /** What Discord computed for the channel the interaction comes from. */
  readonly permissions?: bigint;
  /** The caller's role ids in the guild. */
  readonly roles?: readonly string[];
  /** null: asked in a DM. */
  readonly guildId?: string | null;
  readonly channelId?: string;
}

let nextInteraction = 0;
const interactionBase = (caller: Caller) => {
  nextInteraction += 1;
  const guildId = caller.guildId === undefined ? GUILD : caller.guildId;
  const channelId = caller.channelId ?? GENERAL;
  const user = { discriminator: '0', avatar: null, ...caller.user };
  return {
    id: `60000000000000${String(nextInteraction).padStart(4, '0')}`,
    application_id: BOT_USER.id,
    token: `token-${nextInteraction}`,
    version: 1,
    channel_id: channelId,
    channel: { id: channelId, type: guildId === null ? 1 : 0 },
    locale: 'en-US',
    app_permissions: '0',
    entitlements: [],
    authorizing_integration_owners: {},
    ...(guildId === null
      ? { user, context: 1 }
      : {
          guild_id: guildId,
          guild_locale: 'en-US',
          context: 0,
          member: {
            user,
            roles: caller.roles ?? [],
            joined_at: new Date().toISOString(),
            deaf: false,
            mute: false,
            permissions: String(caller.permissions ?? 0n),
          },
        }),
  };
};

/** An INTERACTION_CREATE for `/memory <sub> ...options` (or `/memory <group> <sub>`). */
export function command(
  caller: Caller,
  path: string,
  options: { name: string; type: number; value: unknown }[] = [],
) {
  const [first, second] = path.split(' ') as [string, string | undefined];
  const leaf = { type: 1, name: second ?? first, options };
  // Discord resolves channel options into objects sent along with the ids.
  const channels = options.filter((option) => option.type === 7).map((option) => String(option.value));
  const resolved = {
    channels: Object.fromEntries(
      channels.map((id) => [id, { id, type: 0, name: `channel-${id}`, permissions: '0' }]),
    ),
  };
  return {
    ...interactionBase(caller),
    type: 2,
    data: {
      ...(channels.length === 0 ? {} : { resolved }),
      id: '650000000000000001',
      name: 'memory',
      type: 1,
      options: [second === undefined ? leaf : { type: 2, name: first, options: [leaf] }],
    },
  };
}

/** The button press on an earlier answer. */
export function press(caller: Caller, customId: string) {
  return {
    ...interactionBase(caller),
    type: 3,
    data: { custom_id: customId, component_type: 2 },
    message: messagePayload({ content: 'confirm?', author: { ...BOT_USER, bot: true } }),
  };
}

type Answer = {
  type: number;
  data?: {
    content?: string;
    flags?: number;
    components?: { components: { custom_id: string; label: string }[] }[];
  };
};

/** The bot's answer to one interaction (its callback), and any later edit of it. */
export function answersTo(
  h: DiscordHarness,
  interaction: { id: string; token: string },
): { callback?: Answer; edit?: { content?: string } } {
  const find = (match: (call: RecordedCall) => boolean) => h.fake.calls.find(match)?.body;
  return {
    callback: find((c) => c.path === `/interactions/${interaction.id}/${interaction.token}/callback`) as
      | Answer
      | undefined,
    edit: find(
      (c) => c.method === 'PATCH' && c.path.includes(`/webhooks/${BOT_USER.id}/${interaction.token}/`),
    ) as { content?: string } | undefined,
  };
}

export async function ask(
  h: DiscordHarness,
  interaction: ReturnType<typeof command> | ReturnType<typeof press>,
) {
  await h.send('INTERACTION_CREATE', interaction);
  // Handlers answer asynchronously: wait for the callback (and a deferred answer's edit).
  for (let i = 0; i < 200; i += 1) {
    const { callback, edit } = answersTo(h, interaction);
    if (callback !== undefined && (callback.type !== 5 || edit !== undefined)) return { callback, edit };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`no answer to the interaction ${interaction.id}`);
}
