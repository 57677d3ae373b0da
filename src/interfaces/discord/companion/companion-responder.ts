/**
 * @module Companion mode: when mentioned, in a DM, or in a reply channel, the bot answers as the persona. The
 * prompt holds the persona, the pool's recalled block (the same `/retrieve`, scoped to the channel) and the
 * recent messages; the streamed reply is sent in pieces of at most 2,000 characters and recorded as `self`.
 */
import { type Client, Events, type Message } from 'discord.js';
import type { CompanionConfig, RecallScope } from '../../../config/config-types.js';
import type { Logger } from '../../../logging/logger.js';
import type { DiscordMemory } from '../discord-memory.js';
import type { DiscordRecorder } from '../discord-recorder.js';
import { listReadableChannels } from '../readable-channels.js';
import { readMessageFacts } from '../message-facts.js';
import { recallWhereAsked } from '../recall-where-asked.js';
import { rewriteDiscordMarkup } from '../rewrite-discord-markup.js';
import { buildCompanionPrompt } from './build-companion-prompt.js';
import { type CharacterCard, readCharacterCard } from './read-character-card.js';
import { RecentContext } from './read-recent-context.js';
import { splitReply } from './split-reply.js';
import { streamChatCompletion } from './stream-chat-completion.js';

export interface CompanionOptions {
  readonly client: Client;
  readonly companion: CompanionConfig;
  /** `discord.recallScope`: how far the memories in a reply may come from. */
  readonly recallScope: RecallScope;
  readonly memory: DiscordMemory;
  readonly recorder: DiscordRecorder;
  readonly logger: Logger;
}

/** Discord shows "typing…" for 10 s after each call: renewed a little sooner while the reply streams. */
const TYPING_RENEW_MS = 8000;

/** Loads the card (a bad card stops start-up, naming the fix) and answers from then on. */
export function attachCompanion(options: CompanionOptions): { readonly idle: () => Promise<void> } {
  const { client, companion, recallScope, memory, recorder, logger } = options;
  const card: CharacterCard | undefined =
    companion.card === undefined ? undefined : readCharacterCard(companion.card);
  const name = card?.name ?? memory.bot.selfSpeaker;
  const replies = new Set<Promise<void>>();
  const context = new RecentContext();

  const shouldReply = (message: Message): boolean => {
    const own = client.user?.id;
    if (
      own === undefined ||
      message.author.id === own ||
      message.author.bot ||
      message.webhookId ||
      message.system
    ) {
      return false; // never answers itself or another bot: no bot-to-bot loops
    }
    if (recorder.rules().selfUserId !== own) return false; // another framework replies for the companion
    if (message.guildId === null) return true;
    const channel = message.channel;
    const parentId = channel.isThread() ? channel.parentId : null;
    if (companion.replyChannels.some((id) => id === message.channelId || id === parentId)) return true;
    return message.mentions.users.has(own);
  };

  const reply = async (message: Message) => {
    const channel = message.channel;
    if (!channel.isSendable()) return;
    await channel.sendTyping();
    const typing = setInterval(() => void channel.sendTyping().catch(() => undefined), TYPING_RENEW_MS);
    try {
      const names = { aliasedUserIds: new Set<string>(), selfUserId: client.user!.id, selfName: name };
      const recent = await context
        .read(channel, message, Math.max(1, companion.contextMessages))
        .catch((error: unknown) => {
          // Without Read Message History the reply still has the message it answers.
          logger.warn({ err: error }, 'discord companion: could not read the channel history');
          return [message];
        });
      const turns = recent.flatMap((m) => {
        const facts = readMessageFacts(m);
        return facts === undefined
          ? []
          : [
              {
                self: m.author.id === client.user!.id,
                speaker: facts.authorName,
                text: rewriteDiscordMarkup(facts, names),
              },
            ];
      });
      const query = turns.at(-1)?.text ?? message.content;
      const recalled = await recallWhereAsked(
        memory,
        recallScope,
        { guildId: message.guildId, channelId: message.channelId, askerId: message.author.id },
        {
          query_text: query,
          exclude_message_ids: recent.map((m) => m.id),
          now: message.createdTimestamp,
          ...(companion.recallMaxChars === undefined ? {} : { max_chars: companion.recallMaxChars }),
        },
        listReadableChannelsForReply(message, recorder),
      )
        .then((answer) => answer.formatted)
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'discord companion: recall failed; replying without memories');
          return '';
        });
      const text = await streamChatCompletion({
        baseUrl: companion.baseUrl,
        model: companion.model,
        ...(companion.apiKey === undefined ? {} : { apiKey: companion.apiKey }),
        messages: buildCompanionPrompt({
          name,
          ...(card === undefined ? {} : { card }),
          ...(companion.systemPrompt === undefined ? {} : { systemPrompt: companion.systemPrompt }),
          recalled,
          recent: turns,
        }),
        timeoutMs: companion.timeoutMs,
      });
      for (const part of splitReply(text)) {
        // Recorded as soon as it is sent (the gateway's echo of it later changes nothing).
        await recorder.recordSent(await channel.send({ content: part, allowedMentions: { parse: [] } }));
      }
    } finally {
      clearInterval(typing);
    }
  };

  client.on(Events.MessageCreate, (message) => {
    if (!shouldReply(message)) return;
    const running = reply(message)
      .catch((error: unknown) => logger.warn({ err: error }, 'discord companion: could not reply'))
      .finally(() => replies.delete(running));
    replies.add(running);
  });
  return { idle: async () => void (await Promise.all(replies)) };
}

/**
 * The channels of the server whose memories a reply to `message` may carry. The reply is posted where it was
 * asked, to everyone who reads that channel; the bot cannot list them (no GuildMembers intent), so it takes the
 * channels both `@everyone` (whoever reads the reply may hold no role) and the asker (a member may be denied
 * what @everyone sees) may read, plus a thread's parent, which every reader of the thread can view (the reply's
 * own channel is added by recallWhereAsked): its readers are the ones it was said to. Undefined (recall then
 * keeps to the channel) when the server, the asker or their rights are not known; a DM needs no list.
 */
function listReadableChannelsForReply(message: Message, recorder: DiscordRecorder): string[] | undefined {
  if (!message.inGuild() || message.member === null) return undefined;
  const guild = message.guild;
  const readable = listReadableChannels(guild, [guild.roles.everyone, message.member], () =>
    recorder.recordedPublicThreads(),
  );
  const parentId = message.channel.isThread() ? message.channel.parentId : null;
  return readable === undefined || parentId === null ? readable : [...readable, parentId];
}
