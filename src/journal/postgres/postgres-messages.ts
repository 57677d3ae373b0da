/**
 * @module Recording a /save window in Postgres with the SQLite journal's outcomes (accepted, duplicate,
 * edited, forgotten). Replicas may record the same window at the same moment, or forget one of its ids:
 * each transaction first locks its (bot, message id)s, so the second waits and then reads the first's rows.
 */
import type { MemoryMessage } from '../../chunking/memory-message.js';
import type { RecordResult } from '../message-journal.js';
import { conversationKey } from '../message-rows.js';
import type { PgSession } from './postgres-session.js';
import { decodeText, encodeText } from './postgres-text.js';

interface Known {
  text: string;
  chunkId: string | null;
  /** Inserted by this call: an edit then changes what is inserted. */
  fresh?: MemoryMessage;
}

/** Records `messages` in one transaction; the same decisions, in the same order, as MessageJournal.recordMessages. */
export function recordPostgresMessages(
  session: PgSession,
  messages: readonly MemoryMessage[],
  arrivedAt: number,
): Promise<RecordResult> {
  const result = { accepted: 0, duplicates: 0, edited: 0, forgotten: 0 };
  const byBot = new Map<string, MemoryMessage[]>();
  for (const m of messages) byBot.set(m.bot, [...(byBot.get(m.bot) ?? []), m]);
  return session.transaction(async (tx) => {
    // Bots in one order too, so two windows naming the same two bots never wait on each other's locks.
    for (const [bot, window] of [...byBot].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      const ids = window.map((m) => m.messageId);
      await tx.lockMessageIds(bot, ids);
      const tombstones = new Map(
        (
          await tx.rows<{ message_id: string; sources: string | null }>(
            'SELECT message_id, sources FROM forgotten_messages WHERE bot = $1 AND message_id = ANY($2)',
            [bot, ids],
          )
        ).map((row) => [row.message_id, row.sources]),
      );
      const known = new Map<string, Known>();
      for (const row of await tx.rows<{
        source: string;
        message_id: string;
        text: string;
        chunk_id: string | null;
      }>('SELECT source, message_id, text, chunk_id FROM messages WHERE bot = $1 AND message_id = ANY($2)', [
        bot,
        ids,
      ])) {
        known.set(`${row.source}\u0000${row.message_id}`, {
          text: decodeText(row.text),
          chunkId: row.chunk_id,
        });
      }
      const edits: { source: string; id: string; text: string; chunkId: string | null }[] = [];
      for (const m of window) {
        const sources = tombstones.get(m.messageId);
        if (
          sources !== undefined &&
          (sources === null || (JSON.parse(sources) as string[]).includes(m.source))
        ) {
          result.forgotten += 1;
          continue;
        }
        const key = `${m.source}\u0000${m.messageId}`;
        const existing = known.get(key);
        if (existing === undefined) {
          known.set(key, { text: m.text, chunkId: null, fresh: m });
          result.accepted += 1;
        } else if (existing.text === m.text) {
          result.duplicates += 1;
        } else {
          existing.text = m.text;
          if (existing.fresh !== undefined) existing.fresh = { ...existing.fresh, text: m.text };
          else edits.push({ source: m.source, id: m.messageId, text: m.text, chunkId: existing.chunkId });
          result.edited += 1;
        }
      }
      await insertMessages(
        tx,
        [...known.values()].flatMap((k) => (k.fresh ? [k.fresh] : [])),
        arrivedAt,
      );
      // The edited chunks' rows first, in chunk id order as a forget takes them, before any message row.
      await tx.lockChunks(edits.flatMap((edit) => (edit.chunkId === null ? [] : [edit.chunkId])));
      for (const edit of edits) await applyEdit(tx, bot, edit);
    }
    return result;
  });
}

async function applyEdit(
  tx: PgSession,
  bot: string,
  edit: { source: string; id: string; text: string; chunkId: string | null },
): Promise<void> {
  await tx.run('UPDATE messages SET text = $1 WHERE bot = $2 AND source = $3 AND message_id = $4', [
    encodeText(edit.text),
    bot,
    edit.source,
    edit.id,
  ]);
  if (edit.chunkId === null) return;
  // Rebuilt in place: a write of the old revision racing with this edit is not taken as current.
  await tx.run(
    `UPDATE chunks SET state = 'planned', revision = revision + 1, next_attempt_at = 0, attempts = 0
     WHERE chunk_id = $1`,
    [edit.chunkId],
  );
}

/** One INSERT for the whole window; ON CONFLICT is a second guard behind the id locks. */
async function insertMessages(
  tx: PgSession,
  fresh: readonly MemoryMessage[],
  arrivedAt: number,
): Promise<void> {
  if (fresh.length === 0) return;
  const column = <T>(read: (m: MemoryMessage) => T) => fresh.map(read);
  await tx.run(
    `INSERT INTO messages (bot, message_id, source, conversation, speaker_kind, text, ts, user_id,
       speaker_name, channel_id, guild_id, is_dm, arrived_at)
     SELECT *, $12::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
       $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $13::integer[])
       AS m(bot, message_id, source, conversation, speaker_kind, text, ts, user_id, speaker_name, channel_id, guild_id, is_dm)
     ON CONFLICT (bot, source, message_id) DO NOTHING`,
    [
      column((m) => m.bot),
      column((m) => m.messageId),
      column((m) => m.source),
      column((m) => encodeText(conversationKey(m))),
      column((m) => m.speakerKind),
      column((m) => encodeText(m.text)),
      column((m) => m.ts),
      column((m) => m.userId ?? null),
      column((m) => (m.speakerName === undefined ? null : encodeText(m.speakerName))),
      column((m) => m.channelId ?? null),
      column((m) => m.guildId ?? null),
      arrivedAt,
      column((m) => (m.isDm === true ? 1 : 0)),
    ],
  );
}
