/**
 * @module Whether two kept benchmark folders hold the same points (issue 36): for each collection of the
 * embedded store, the number of points and a digest of their ids and payloads, and of their ids and vectors,
 * read straight from SQLite (read-only; both stores closed). Used to check that a build resumed with
 * `recall-latency.bench.ts --resume` after a kill -9 equals one built whole.
 * Run: node --import tsx bench/support/compare-store-folders.ts DIR_A DIR_B (folders kept with --keep)
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';

interface Digest {
  readonly points: number;
  readonly payloads: string;
  readonly vectors: string;
}

interface PointRow {
  readonly id_key: string;
  readonly payload: string;
  readonly vector: Buffer | null;
  readonly vectors: Buffer | null;
}

/** Each collection's digest, points read in id order. */
function digestFolder(dir: string): Map<string, Digest> {
  const db = new Database(join(dir, 'qdrant', 'store.sqlite'), { readonly: true });
  const digests = new Map<string, Digest>();
  try {
    const names = db.prepare('SELECT name FROM collections ORDER BY name').all() as { name: string }[];
    const rows = db.prepare(
      'SELECT id_key, payload, vector, vectors FROM points WHERE collection = ? ORDER BY id_key',
    );
    for (const { name } of names) {
      const [payloads, vectors] = [createHash('sha1'), createHash('sha1')];
      let points = 0;
      for (const row of rows.iterate(name) as Iterable<PointRow>) {
        points++;
        payloads.update(`${row.id_key}\n${row.payload}\n`);
        vectors.update(row.id_key);
        if (row.vector !== null) vectors.update(row.vector);
        if (row.vectors !== null) vectors.update(row.vectors);
      }
      digests.set(name, { points, payloads: payloads.digest('hex'), vectors: vectors.digest('hex') });
    }
  } finally {
    db.close();
  }
  return digests;
}

const [dirA, dirB] = process.argv.slice(2);
if (dirA === undefined || dirB === undefined) throw new Error('usage: compare-store-folders.ts DIR_A DIR_B');
const [a, b] = [digestFolder(dirA), digestFolder(dirB)];
let same = a.size === b.size;
for (const [name, digest] of a) {
  const other = b.get(name);
  const verdict = (x: string | undefined, y: string) => (x === y ? 'same' : 'DIFFER');
  console.log(
    `${name}: ${digest.points} / ${other?.points ?? 'missing'} points; payloads ` +
      `${verdict(other?.payloads, digest.payloads)}, vectors ${verdict(other?.vectors, digest.vectors)}`,
  );
  same &&=
    other?.points === digest.points && other.payloads === digest.payloads && other.vectors === digest.vectors;
}
console.log(same ? 'the two folders hold the same points' : 'the folders differ');
process.exitCode = same ? 0 : 1;
