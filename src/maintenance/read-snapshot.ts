/**
 * @module Reads a snapshot file's lines back, checking each: a line that is not what the format says (a
 * point the store would refuse, or one repeating an id) stops the read with the file, the line number and
 * what to do.
 */
import { ValidationError } from '../errors/memory-pool-error.js';
import { SNAPSHOT_TABLES } from '../journal/journal-snapshot.js';
import { checkSnapshotPoint, readSnapshotVectors, type SnapshotVectors } from './check-snapshot-point.js';
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotEnd,
  type SnapshotHeader,
  type SnapshotLine,
  type SnapshotRowLine,
} from './snapshot-format.js';

/** A snapshot's lines in order, as the CLI reads them from the (possibly gzipped) file. */
export type SnapshotSource = () => AsyncIterable<string>;

/** A checked line and its line number in the file (from 1), for errors found after the read. */
export interface NumberedSnapshotLine {
  readonly line: SnapshotLine;
  readonly lineNumber: number;
}

/** Reads the lines, checked; the first is the header and the last the end line. */
export async function* readSnapshotLines(file: string, source: SnapshotSource): AsyncGenerator<SnapshotLine> {
  for await (const { line } of readNumberedSnapshotLines(file, source)) yield line;
}

/** readSnapshotLines, with each line's number. */
export async function* readNumberedSnapshotLines(
  file: string,
  source: SnapshotSource,
): AsyncGenerator<NumberedSnapshotLine> {
  let lineNumber = 0;
  let header: SnapshotHeader | undefined;
  let vectors: SnapshotVectors | undefined;
  let end: SnapshotEnd | undefined;
  /** Each point id's line: a repeated id would be stored once, and the restore's count would be wrong. */
  const idLines = new Map<string, number>();
  for await (const text of source()) {
    lineNumber += 1;
    if (text.trim() === '') continue;
    const fail = (what: string, fix = 'Export the bot again, or restore an unmodified snapshot.') =>
      new ValidationError(`${file}:${lineNumber}`, `${file} line ${lineNumber}: ${what}. ${fix}`);
    if (end !== undefined) throw fail('a line follows the end line');
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      throw fail('is not JSON');
    }
    const type = (line as { type?: unknown } | null)?.type;
    if (header === undefined || vectors === undefined) {
      header = checkHeader(line, fail);
      vectors = readSnapshotVectors(header, fail);
      yield { line: header, lineNumber };
      continue;
    }
    if (type === 'point') {
      const point = checkSnapshotPoint(line, vectors, fail);
      // Qdrant reads a UUID in any case as the same id.
      const key = String(point.id).toLowerCase();
      const first = idLines.get(key);
      if (first !== undefined) throw fail(`repeats the point id ${point.id} of line ${first}`);
      idLines.set(key, lineNumber);
      yield { line: point, lineNumber };
    } else if (type === 'row') yield { line: checkRow(line, fail), lineNumber };
    else if (type === 'end') {
      end = line as SnapshotEnd;
      yield { line: end, lineNumber };
    } else throw fail(`has type ${JSON.stringify(type)}, not point, row or end`);
  }
  if (header === undefined) {
    throw new ValidationError(
      file,
      `${file} is empty: it is not a memory-pool snapshot. Pass a file written by \`memory-pool export\`.`,
    );
  }
  if (end === undefined) {
    throw new ValidationError(
      file,
      `${file} ends at line ${lineNumber} without its end line: the file is cut short. Export the bot again (an interrupted export leaves only a .partial file).`,
    );
  }
}

type Fail = (what: string, fix?: string) => ValidationError;

function checkHeader(line: unknown, fail: Fail): SnapshotHeader {
  const header = line as Partial<SnapshotHeader> | null;
  if (header?.type !== 'header' || header.format !== SNAPSHOT_FORMAT) {
    throw fail(`is not a ${SNAPSHOT_FORMAT} header`, 'Pass a file written by `memory-pool export`.');
  }
  if (header.version !== SNAPSHOT_VERSION) {
    throw fail(
      `has format version ${String(header.version)}, this memory-pool reads version ${SNAPSHOT_VERSION}`,
      'Restore it with the memory-pool version that exported it, or upgrade memory-pool.',
    );
  }
  if (
    typeof header.bot !== 'string' ||
    typeof header.collection !== 'string' ||
    header.layout === undefined
  ) {
    throw fail('lacks bot, collection or layout');
  }
  return header as SnapshotHeader;
}

function checkRow(line: unknown, fail: Fail): SnapshotRowLine {
  const row = line as Partial<SnapshotRowLine>;
  if (!SNAPSHOT_TABLES.includes(row.table as never)) {
    throw fail(`is a row of table ${JSON.stringify(row.table)}, not one of ${SNAPSHOT_TABLES.join(', ')}`);
  }
  if (row.row === undefined || typeof row.row !== 'object' || row.row === null)
    throw fail('is a row without columns');
  for (const [column, value] of Object.entries(row.row)) {
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      throw fail(
        `is a ${row.table} row whose column ${JSON.stringify(column)} is not a string, number or null`,
      );
    }
  }
  return row as SnapshotRowLine;
}
