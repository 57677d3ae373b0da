/** @module How a chunks row maps to a PlannedChunk, shared by the journal's backends. */
import type { PlannedChunk } from './chunk-queue.js';

/** The columns a PlannedChunk is read from. */
export const PLANNED_CHUNK_COLUMNS = 'chunk_id, bot, collection, attempts, revision';

/** A chunks row as the drivers return it (Postgres's BIGINTs already parsed to numbers). */
export interface PlannedChunkRow {
  chunk_id: string;
  bot: string;
  collection: string;
  attempts: number;
  revision: number;
}

export function toPlannedChunk(row: PlannedChunkRow): PlannedChunk {
  return {
    chunkId: row.chunk_id,
    bot: row.bot,
    collection: row.collection,
    attempts: row.attempts,
    revision: row.revision,
  };
}

/** Of `asked`, the ids a claim renewal returned with the revision asked (a chunk moved on returns another, or null). */
export function currentAmong(
  asked: readonly { chunkId: string; revision: number }[],
  renewed: readonly { chunk_id: string; revision: number | string | null }[],
): string[] {
  const revisions = new Map(renewed.map((row) => [row.chunk_id, row.revision]));
  return asked
    .filter((c) => {
      const revision = revisions.get(c.chunkId);
      return revision !== undefined && revision !== null && Number(revision) === c.revision;
    })
    .map((c) => c.chunkId);
}
