/** @module The wire contract of `GET /bots/{bot}/stats`, shared by the server, the client and the MCP resource. */
import type { RenamingStatus } from './service-status.js';

/** What one bot's memory holds, from the store and the service's journal. */
export interface BotStatsResponse {
  readonly bot: string;
  readonly collection: string;
  /** The embedding model memory-pool recorded for the collection; null before its first write. */
  readonly model: string | null;
  readonly points: {
    /** Every point in the collection, whoever wrote it. */
    readonly total: number;
    /** Points without a source: written by SillyTavern (or another st-qdrant-memory). */
    readonly unsourced: number;
    /** Points by the source that wrote them, for each source the journal knows. */
    readonly bySource?: Readonly<Record<string, number>>;
  };
  readonly messages: {
    /** Messages in the journal, by source. */
    readonly bySource: Readonly<Record<string, number>>;
    /** Accepted but not yet in a stored chunk. */
    readonly pending: number;
    /** When the oldest pending message arrived (Unix ms); null when nothing is pending. */
    readonly oldestPendingAt?: number | null;
    /** Tombstones left by /forget. */
    readonly forgotten: number;
  };
  readonly chunks: { readonly planned: number; readonly stored: number };
  /** Only while a rename pass of the bot runs (docs/people.md): the chunks left to rewrite under linked names. */
  readonly renaming?: RenamingStatus;
}
