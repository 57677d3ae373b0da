/**
 * @module Recording a /save window in the SQLite journal: new ids inserted, re-sent ones recognised, edits
 * applied, forgotten ids ignored. What the window's ids already have is read in one query per bot and source
 * (and the tombstones in one per bot), as the Postgres journal does, instead of two lookups per message.
 */
import type { Database } from 'better-sqlite3';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { conversationKey } from './message-rows.js';

export interface RecordResult {
  /** New messages. */
  readonly accepted: number;
  /** Known ids with the same text (re-sent windows): nothing changes. */
  readonly duplicates: number;
  /** Known ids with new text: the message is replaced and its chunk rebuilt in place. */
  readonly edited: number;
  /** Ids forgotten earlier: ignored, so a forget is never undone by a re-send. */
  readonly forgotten: number;
}

interface Known {
  text: string;
  chunkId: string | null;
}

/** The statements of a recording, prepared once per connection; `record` runs inside the caller's transaction. */
export class MessageRecorder {
  readonly #insertMessage;
  readonly #selectKnown;
  readonly #selectTombstones;
  readonly #updateText;
  readonly #replanChunk;

  constructor(db: Database) {
    this.#insertMessage = db.prepare(
      `INSERT INTO messages (bot, message_id, source, conversation, speaker_kind, text, ts, user_id,
         speaker_name, channel_id, guild_id, is_dm, arrived_at)
       VALUES (@bot, @messageId, @source, @conversation, @speakerKind, @text, @ts, @userId,
         @speakerName, @channelId, @guildId, @isDm, @arrivedAt)`,
    );
    // The ids go in as one JSON array: one statement whatever the window's length, each id a primary key seek.
    this.#selectKnown = db.prepare(
      `SELECT message_id, text, chunk_id FROM messages
       WHERE bot = ? AND source = ? AND message_id IN (SELECT value FROM json_each(?))`,
    );
    this.#selectTombstones = db.prepare(
      `SELECT message_id, sources FROM forgotten_messages
       WHERE bot = ? AND message_id IN (SELECT value FROM json_each(?))`,
    );
    this.#updateText = db.prepare(
      'UPDATE messages SET text = ? WHERE bot = ? AND source = ? AND message_id = ?',
    );
    this.#replanChunk = db.prepare(
      `UPDATE chunks SET state = 'planned', revision = revision + 1, next_attempt_at = 0, attempts = 0
       WHERE chunk_id = ?`,
    );
  }

  /**
   * Records `messages` in order: a tombstoned id is skipped, a known one with the same text is a duplicate,
   * with new text an edit (its chunk planned again), an unknown one inserted. An id met twice in one call is
   * known the second time, as if it had been looked up after the first.
   */
  record(messages: readonly MemoryMessage[], arrivedAt: number): RecordResult {
    const tombstones = this.#readTombstones(messages);
    const known = this.#readKnown(messages);
    let accepted = 0;
    let duplicates = 0;
    let edited = 0;
    let forgotten = 0;
    for (const m of messages) {
      const sources = tombstones.get(keyOf(m.bot, m.messageId));
      if (
        sources !== undefined &&
        (sources === null || (JSON.parse(sources) as string[]).includes(m.source))
      ) {
        forgotten += 1;
        continue;
      }
      const key = keyOf(m.bot, m.source, m.messageId);
      const existing = known.get(key);
      if (existing !== undefined) {
        if (existing.text === m.text) {
          duplicates += 1;
          continue;
        }
        this.#updateText.run(m.text, m.bot, m.source, m.messageId);
        if (existing.chunkId !== null) this.#replanChunk.run(existing.chunkId);
        existing.text = m.text;
        edited += 1;
        continue;
      }
      this.#insert(m, arrivedAt);
      known.set(key, { text: m.text, chunkId: null });
      accepted += 1;
    }
    return { accepted, duplicates, edited, forgotten };
  }

  /** The window's tombstones by bot and id: their sources (JSON), null for every source. */
  #readTombstones(messages: readonly MemoryMessage[]): Map<string, string | null> {
    const tombstones = new Map<string, string | null>();
    for (const { bot, ids } of groupIds(messages, (m) => keyOf(m.bot))) {
      const rows = this.#selectTombstones.all(bot, JSON.stringify(ids)) as {
        message_id: string;
        sources: string | null;
      }[];
      for (const row of rows) tombstones.set(keyOf(bot, row.message_id), row.sources);
    }
    return tombstones;
  }

  /** What the journal holds of the window's ids, by bot, source and id. */
  #readKnown(messages: readonly MemoryMessage[]): Map<string, Known> {
    const known = new Map<string, Known>();
    for (const { bot, source, ids } of groupIds(messages, (m) => keyOf(m.bot, m.source))) {
      const rows = this.#selectKnown.all(bot, source, JSON.stringify(ids)) as {
        message_id: string;
        text: string;
        chunk_id: string | null;
      }[];
      for (const row of rows) {
        known.set(keyOf(bot, source, row.message_id), { text: row.text, chunkId: row.chunk_id });
      }
    }
    return known;
  }

  #insert(m: MemoryMessage, arrivedAt: number): void {
    this.#insertMessage.run({
      bot: m.bot,
      messageId: m.messageId,
      source: m.source,
      conversation: conversationKey(m),
      speakerKind: m.speakerKind,
      text: m.text,
      ts: m.ts,
      userId: m.userId ?? null,
      speakerName: m.speakerName ?? null,
      channelId: m.channelId ?? null,
      guildId: m.guildId ?? null,
      isDm: m.isDm === true ? 1 : 0,
      arrivedAt,
    });
  }
}

/** A map key of bot, source and id that no separator inside a name can make ambiguous. */
function keyOf(...parts: string[]): string {
  return JSON.stringify(parts);
}

/** The messages' ids grouped by `groupOf` (a /save window is one group: one bot, one source). */
function groupIds(
  messages: readonly MemoryMessage[],
  groupOf: (m: MemoryMessage) => string,
): { bot: string; source: string; ids: string[] }[] {
  const groups = new Map<string, { bot: string; source: string; ids: string[] }>();
  for (const m of messages) {
    const key = groupOf(m);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { bot: m.bot, source: m.source, ids: [m.messageId] });
    else group.ids.push(m.messageId);
  }
  return [...groups.values()];
}
