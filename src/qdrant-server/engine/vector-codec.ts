/**
 * @module The `vectors` BLOB of a point row: its named dense and its sparse vectors, binary, little-endian.
 * The unnamed vector keeps its own `vector` column (as before named vectors existed), so old rows read unchanged.
 * Layout, repeated: u8 kind (0 dense, 1 sparse) · u32 name length · name (UTF-8) · u32 n ·
 * dense: n f32 | sparse: n u32 indices then n f32 values.
 */
import { endianness } from 'node:os';
import type { PointVectors, SparseVectorData } from './point-table.js';

const DENSE = 0;
const SPARSE = 1;
/** Typed arrays use the platform's byte order; on a little-endian one (x86, ARM as Node runs it) the bytes copy as they are. */
const PLATFORM_LE = endianness() === 'LE';

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
      const indices = fromLittleEndian(new Uint32Array(n), blob, at);
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
  return fromLittleEndian(new Float32Array(n), blob, at);
}

/**
 * Fills `into` from the little-endian bytes at `blob[at..]` and returns it. `platformLE` is the platform's order
 * (a parameter so the big-endian path is tested on the little-endian machines the tests run on).
 */
export function fromLittleEndian<T extends Float32Array | Uint32Array>(
  into: T,
  blob: Buffer,
  at: number,
  platformLE = PLATFORM_LE,
): T {
  // A copy of too few bytes would leave zeros where the vector's end should be: a torn row must not read as one.
  if (at + into.byteLength > blob.length) {
    throw new Error(
      `vector codec: a stored point's vectors are cut short (${into.length} components need bytes ` +
        `${at}-${at + into.byteLength} of a ${blob.length}-byte BLOB): the row is damaged`,
    );
  }
  if (platformLE) {
    // One copy of the bytes; `into` is fresh, so aligned whatever the BLOB's offset.
    new Uint8Array(into.buffer, into.byteOffset, into.byteLength).set(
      blob.subarray(at, at + into.byteLength),
    );
    return into;
  }
  const isFloat = into instanceof Float32Array;
  for (let i = 0; i < into.length; i++) {
    into[i] = isFloat ? blob.readFloatLE(at + 4 * i) : blob.readUInt32LE(at + 4 * i);
  }
  return into;
}

/**
 * The array's bytes in little-endian order: a view of its own bytes on a little-endian platform (the caller
 * concatenates, which copies), else a copy written component by component. `platformLE` as in fromLittleEndian.
 */
export function toLittleEndian(values: Float32Array | Uint32Array, platformLE = PLATFORM_LE): Buffer {
  if (platformLE) return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const bytes = Buffer.alloc(values.length * 4);
  const isFloat = values instanceof Float32Array;
  for (let i = 0; i < values.length; i++) {
    if (isFloat) bytes.writeFloatLE(values[i] as number, i * 4);
    else bytes.writeUInt32LE(values[i] as number, i * 4);
  }
  return bytes;
}
