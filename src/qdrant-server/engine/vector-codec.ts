/**
 * @module The `vectors` BLOB of a point row: its named dense and its sparse vectors, binary, little-endian.
 * The unnamed vector keeps its own `vector` column (as before named vectors existed), so old rows read unchanged.
 * Layout, repeated: u8 kind (0 dense, 1 sparse) · u32 name length · name (UTF-8) · u32 n ·
 * dense: n f32 | sparse: n u32 indices then n f32 values.
 */
import type { PointVectors, SparseVectorData } from './point-table.js';

const DENSE = 0;
const SPARSE = 1;

/** Encodes every vector but the unnamed dense one; null when there is none. */
export function encodeNamedVectors(vectors: PointVectors): Buffer | null {
  const parts: Buffer[] = [];
  const header = (kind: number, name: string, n: number) => {
    const nameBytes = Buffer.from(name, 'utf8');
    const head = Buffer.alloc(9);
    head.writeUInt8(kind, 0);
    head.writeUInt32LE(nameBytes.length, 1);
    head.writeUInt32LE(n, 5);
    // The length sits after the name in the layout; write name between the two fields.
    parts.push(head.subarray(0, 5), nameBytes, head.subarray(5, 9));
  };
  for (const [name, vector] of vectors.dense) {
    if (name === '') continue;
    header(DENSE, name, vector.length);
    parts.push(toLittleEndian(vector));
  }
  for (const [name, vector] of vectors.sparse) {
    header(SPARSE, name, vector.indices.length);
    parts.push(toLittleEndian(vector.indices), toLittleEndian(vector.values));
  }
  return parts.length === 0 ? null : Buffer.concat(parts);
}

/** Decodes a `vectors` BLOB into fresh (aligned, standalone) arrays. */
export function decodeNamedVectors(blob: Buffer): {
  dense: Map<string, Float32Array>;
  sparse: Map<string, SparseVectorData>;
} {
  const dense = new Map<string, Float32Array>();
  const sparse = new Map<string, SparseVectorData>();
  let at = 0;
  while (at < blob.length) {
    const kind = blob.readUInt8(at);
    const nameLength = blob.readUInt32LE(at + 1);
    const name = blob.toString('utf8', at + 5, at + 5 + nameLength);
    at += 5 + nameLength;
    const n = blob.readUInt32LE(at);
    at += 4;
    if (kind === DENSE) {
      dense.set(name, readFloats(blob, at, n));
      at += 4 * n;
    } else if (kind === SPARSE) {
      const indices = new Uint32Array(n);
      for (let i = 0; i < n; i++) indices[i] = blob.readUInt32LE(at + 4 * i);
      at += 4 * n;
      sparse.set(name, { indices, values: readFloats(blob, at, n) });
      at += 4 * n;
    } else {
      throw new Error(`vector codec: unknown vector kind ${kind} in a stored point`);
    }
  }
  return { dense, sparse };
}

function readFloats(blob: Buffer, at: number, n: number): Float32Array {
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) values[i] = blob.readFloatLE(at + 4 * i);
  return values;
}

/** The array's bytes in little-endian order (a copy; typed arrays use the platform's order). */
function toLittleEndian(values: Float32Array | Uint32Array): Buffer {
  const bytes = Buffer.alloc(values.length * 4);
  const isFloat = values instanceof Float32Array;
  for (let i = 0; i < values.length; i++) {
    if (isFloat) bytes.writeFloatLE(values[i] as number, i * 4);
    else bytes.writeUInt32LE(values[i] as number, i * 4);
  }
  return bytes;
}
