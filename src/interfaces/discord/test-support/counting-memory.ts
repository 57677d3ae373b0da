/**
 * @module A DiscordMemory that counts the saves of each message id, shared by several replicas as their one
 * journal would be (recordedAmong sees what any of them saved): "recorded exactly once" is a count of 1.
 */
import { testBot } from '../../../config/test-support/test-bot.js';
import type { DiscordMemory } from '../discord-memory.js';

export interface CountingMemory {
  readonly memory: DiscordMemory;
  /** Message id → how many times it was saved. */
  readonly saves: Map<string, number>;
  /** Message id → its last saved text. */
  readonly texts: Map<string, string>;
}

const unused = () => Promise.reject(new Error('not used'));

export function createCountingMemory(): CountingMemory {
  const saves = new Map<string, number>();
  const texts = new Map<string, string>();
  const memory: DiscordMemory = {
    bot: testBot('mythos'),
    save: async (messages) => {
      for (const m of messages) {
        saves.set(m.message_id, (saves.get(m.message_id) ?? 0) + 1);
        texts.set(m.message_id, m.text);
      }
      return { ok: true, accepted: messages.length, duplicates: 0, edited: 0, forgotten: 0 };
    },
    forget: unused,
    count: async () => 0,
    recordedAmong: async (ids) => new Set(ids.filter((id) => saves.has(id))),
    retrieve: unused,
    stats: unused,
  };
  return { memory, saves, texts };
}
