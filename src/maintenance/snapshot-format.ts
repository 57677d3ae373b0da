/**
 * @module The snapshot file of `memory-pool export` (JSON Lines, optionally gzipped): a header line, one
 * line per point, one per journal row, and an end line whose counts prove the file is whole. Keys are
 * written in sorted order, so the same memory always gives the same bytes.
 */
import type { JournalRow, SnapshotTable } from '../journal/journal-snapshot.js';
import type { StoredPointId } from '../store/point-store.js';
import type { CollectionLayout, StoredVector } from '../store/store-admin.js';

export const SNAPSHOT_FORMAT = 'memory-pool-snapshot';
export const SNAPSHOT_VERSION = 1;

export interface SnapshotHeader {
  readonly type: 'header';
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: number;
  readonly bot: string;
  /** The collection the points were read from. */
  readonly collection: string;
  /** The single unnamed vector's size and distance; null when the collection uses named vectors. */
  readonly vectorSize: number | null;
  readonly distance: string | null;
  /** The collection's vector layout as the store states it (named and sparse vectors included). */
  readonly layout: CollectionLayout;
  /** The embedding model memory-pool recorded for the collection; null when it never wrote there. */
  readonly model: { readonly model: string; readonly dimensions: number } | null;
  readonly createdAt: string;
  /** The parts index is not carried: it is rebuilt from the chunks. */
  readonly parts: { readonly included: false; readonly rebuild: string };
}

export interface SnapshotPointLine {
  readonly type: 'point';
  readonly id: StoredPointId;
  readonly vector: StoredVector;
  readonly payload: Record<string, unknown>;
}

export interface SnapshotRowLine {
  readonly type: 'row';
  readonly table: SnapshotTable;
  readonly row: JournalRow;
}

export interface SnapshotEnd {
  readonly type: 'end';
  readonly points: number;
  readonly rows: Readonly<Partial<Record<SnapshotTable, number>>>;
}

export type SnapshotLine = SnapshotHeader | SnapshotPointLine | SnapshotRowLine | SnapshotEnd;

/** One line of the file: JSON with object keys sorted at every depth, and a newline. */
export function formatSnapshotLine(line: SnapshotLine): string {
  return `${formatCanonicalJson(line)}\n`;
}

/** JSON with object keys sorted at every depth: equal values give equal text. */
export function formatCanonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}

/** Whether the file name asks for gzip. */
export function isGzipPath(path: string): boolean {
  return path.endsWith('.gz');
}
