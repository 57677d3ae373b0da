/**
 * @module Synthetic conversations that send /save the way interfaces do: the last 20 messages every turn,
 * so each message is re-sent many times. Tracks which message ids a 2xx answer acknowledged.
 */

const TOPICS = [
  'my sister Anna in Lisbon',
  'the piano recital next week',
  'baking sourdough bread',
  'the cat that sleeps on the windowsill',
  'a chess game that went wrong',
  'rain over the harbour',
  'planting tomatoes on the balcony',
  'the night train to Vienna',
  'learning Portuguese verbs',
  'a broken bicycle chain',
];
export const WINDOW = 20;

export interface SaveBody {
  readonly bot: string;
  readonly source: string;
  readonly messages: {
    speaker_kind: 'user' | 'self';
    text: string;
    message_id: string;
    ts: number;
    channel_id: string;
    discord_user_id?: string;
  }[];
}

/** One conversation (bot + source + channel) growing by a few messages per turn. */
export class Conversation {
  private readonly messages: SaveBody['messages'] = [];

  constructor(
    readonly bot: string,
    readonly source: string,
    readonly channel: string,
    private readonly random: () => number,
  ) {}

  /** Adds `count` new messages and returns the body a client sends: the last WINDOW messages. */
  nextWindow(count: number): SaveBody {
    for (let i = 0; i < count; i++) {
      const n = this.messages.length;
      const topic = TOPICS[Math.floor(this.random() * TOPICS.length)]!;
      const self = n % 2 === 1;
      this.messages.push({
        speaker_kind: self ? 'self' : 'user',
        text: self
          ? `That sounds like a lot about ${topic}. What happened after that, in part ${n}?`
          : `Let me tell you about ${topic}: it came up again today, note ${n} in ${this.channel}.`,
        message_id: `${this.channel}-${n}`,
        ts: Date.now(),
        channel_id: this.channel,
        ...(self ? {} : { discord_user_id: `user-${this.channel}` }),
      });
    }
    return { bot: this.bot, source: this.source, messages: this.messages.slice(-WINDOW) };
  }

  /** How many messages the conversation has produced. */
  get size(): number {
    return this.messages.length;
  }
}

/** Message ids some 2xx /save answered, per bot, keyed `source/messageId` (ids are unique per source). */
export class Acknowledged {
  readonly byBot = new Map<string, Set<string>>();

  add(body: SaveBody): void {
    const ids = this.byBot.get(body.bot) ?? new Set<string>();
    this.byBot.set(body.bot, ids);
    for (const m of body.messages) ids.add(`${body.source}/${m.message_id}`);
  }

  get count(): number {
    let n = 0;
    for (const ids of this.byBot.values()) n += ids.size;
    return n;
  }
}

/** A query a user might ask, different almost every time, so the embedding cache does not answer it. */
export function randomQuery(random: () => number): string {
  const topic = TOPICS[Math.floor(random() * TOPICS.length)]!;
  return `what do you remember about ${topic}? (${Math.floor(random() * 1e9)})`;
}
