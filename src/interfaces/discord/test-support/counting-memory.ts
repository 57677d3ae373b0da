/**
 * @module A DiscordMemory that counts the saves of each message id, shared by several replicas as their one
 * journal would be (recordedAmong sees what any of them saved): "recorded exactly once" is a count of 1.
 */
import { testBot } from '../../../config/test-support/test-bot.js';
import type { DiscordMemory, RecordedMessage } from '../discord-memory.js';

export interface CountingMemory {
  readonly memory: DiscordMemory;
  /** Message id → how many times it was saved. */
  readonly saves: Map<string, number>;
  /** Message id → its last saved text (a forgotten one's is removed). */
  readonly texts: Map<string, string>;
  /** The ids forgotten by id, in order. */
  readonly forgotten: string[];
}

const unused = () => Promise.reject(new Error('not used'));

export function createCountingMemory(): CountingMemory {
  const saves = new Map<string, number>();
  const texts = new Map<string, string>();
  const forgotten: string[] = [];
  /** What a journal would hold now: saved and not forgotten, with its channel. */
  const held = new Map<string, RecordedMessage & { readonly channelId: string | undefined }>();
  const memory: DiscordMemory = {
    bot: testBot('mythos'),
    save: async (messages) => {
      for (const m of messages) {
        saves.set(m.message_id, (saves.get(m.message_id) ?? 0) + 1);
        texts.set(m.message_id, m.text);
        held.set(m.message_id, { id: m.message_id, ts: m.ts ?? 0, text: m.text, channelId: m.channel_id });
      }
      return { ok: true, accepted: messages.length, duplicates: 0, edited: 0, forgotten: 0 };
    },
    forget: async (selector) => {
      if (!('message_ids' in selector)) return unused();
      const found = selector.message_ids.filter((id) => held.delete(id));
      for (const id of found) texts.delete(id);
      forgotten.push(...selector.message_ids);
      return {
        ok: true,
        points_deleted: 0,
        points_rewritten: 0,
        pending_dropped: 0,
        messages_forgotten: found.length,
      };
    },
    count: async () => 0,
    recordedAmong: async (ids) => new Set(ids.filter((id) => held.has(id))),
    recordedInChannel: async (channelId, fromTs, toTs) =>
      [...held.values()]
        .filter((m) => m.channelId === channelId && m.ts >= fromTs && m.ts <= toTs)
        .sort((x, y) => x.ts - y.ts)
        .map(({ id, ts, text }) => ({ id, ts, text })),
    retrieve: unused,
    stats: unused,
    createLinkCode: unused,
    linkCodeStatus: unused,
    redeemLinkCode: unused,
    linkedDiscordUserIds: async () => [],
    countOwnPerson: async () => undefined,
    forgetOwnPerson: async () => undefined,
  };
  return { memory, saves, texts, forgotten };
}
