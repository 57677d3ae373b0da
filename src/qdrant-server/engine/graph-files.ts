/**
 * @module A saved HNSW graph's two files in the store's `graphs/` folder: the usearch index (`.usearch`) and
 * which point each of its keys stood for (`.keys`), with each file's length and CRC-32 recorded in SQLite, so
 * a torn or altered file is refused before usearch reads it (usearch trusts its links and could crash on them).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Index } from 'usearch';

/** A file's length and CRC-32 as written. */
export interface FileCheck {
  readonly bytes: number;
  readonly crc: number;
}

/** Which point each live key of a saved graph stood for, and that point's version when it was saved. */
export interface SavedKeys {
  readonly keys: readonly number[];
  readonly points: readonly string[];
  readonly versions: readonly number[];
}

/** Where a graph was saved and what its files must be. */
export interface SavedFiles {
  /** Base name in the graphs folder; the two files add `.usearch` and `.keys`. */
  readonly file: string;
  readonly graph: FileCheck;
  readonly keys: FileCheck;
}

/** Reads a whole file in 16 MB pieces: a 600 MB graph is checked without holding it in memory. */
function checkFile(path: string): FileCheck {
  const piece = Buffer.allocUnsafe(16 * 2 ** 20);
  const fd = openSync(path, 'r');
  let [bytes, crc] = [0, 0];
  try {
    for (;;) {
      const read = readSync(fd, piece, 0, piece.length, null);
      if (read === 0) break;
      crc = crc32(piece.subarray(0, read), crc);
      bytes += read;
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, crc };
}

function sameCheck(a: FileCheck, b: FileCheck): boolean {
  return a.bytes === b.bytes && a.crc === b.crc;
}

/**
 * Writes `index` and `keys` under a new name (never over the files a SQLite row names, so a kill -9 mid-write
 * leaves the last saved graph whole; the new files count only once their row commits). No fsync: a killed
 * process's writes survive in the OS cache, and a power loss's torn file fails its check and is rebuilt.
 */
export function writeGraphFiles(dir: string, index: Index, keys: SavedKeys): SavedFiles {
  mkdirSync(dir, { recursive: true });
  const file = `graph-${randomBytes(8).toString('hex')}`;
  const [graphPath, keysPath] = [join(dir, `${file}.usearch`), join(dir, `${file}.keys`)];
  try {
    index.save(graphPath);
    writeFileSync(keysPath, JSON.stringify(keys));
    return { file, graph: checkFile(graphPath), keys: checkFile(keysPath) };
  } catch (error) {
    rmSync(graphPath, { force: true });
    rmSync(keysPath, { force: true });
    throw error;
  }
}

/**
 * Loads a saved graph into `index` (created with the graph's options) and answers its keys, or a reason it
 * cannot be used: a file missing, torn or altered since it was saved.
 */
export function readGraphFiles(dir: string, saved: SavedFiles, index: Index): SavedKeys | string {
  const [graphPath, keysPath] = [join(dir, `${saved.file}.usearch`), join(dir, `${saved.file}.keys`)];
  try {
    if (statSync(graphPath).size !== saved.graph.bytes || statSync(keysPath).size !== saved.keys.bytes)
      return 'a file is not the length it was saved with (torn)';
    if (!sameCheck(checkFile(graphPath), saved.graph) || !sameCheck(checkFile(keysPath), saved.keys))
      return 'a file does not match its checksum';
    const keys = JSON.parse(readFileSync(keysPath, 'utf8')) as SavedKeys;
    index.load(graphPath);
    return keys;
  } catch (error) {
    return `it could not be read: ${String(error)}`;
  }
}

/** Deletes every file in the graphs folder that no saved graph names (an older save, a save cut short). */
export function removeUnusedGraphFiles(dir: string, used: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no graph saved yet
  }
  for (const name of names) {
    if (!used.has(name.replace(/\.(usearch|keys)$/, ''))) rmSync(join(dir, name), { force: true });
  }
}
