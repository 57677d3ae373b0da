/**
 * @module The `slice` condition's point-id hash (`lib/segment/src/types.rs::slice_point_id_hash`, a public contract
 * of Qdrant 1.19): SipHash-2-4 with a zero key over 8 little-endian bytes for a numeric id, the 16 RFC 4122 bytes
 * for a UUID. A point is in slice `index` of `total` when `hash % total == index`.
 */
import type { PointId } from '../engine/point-id.js';

const MASK = (1n << 64n) - 1n;

function rotl(x: bigint, b: bigint): bigint {
  return ((x << b) | (x >> (64n - b))) & MASK;
}

/** SipHash-2-4 of `bytes` under the 128-bit key (k0, k1), as a u64. */
export function sipHash24(bytes: Uint8Array, k0 = 0n, k1 = 0n): bigint {
  let v0 = 0x736f6d6570736575n ^ k0;
  let v1 = 0x646f72616e646f6dn ^ k1;
  let v2 = 0x6c7967656e657261n ^ k0;
  let v3 = 0x7465646279746573n ^ k1;
  const round = () => {
    v0 = (v0 + v1) & MASK;
    v1 = rotl(v1, 13n) ^ v0;
    v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & MASK;
    v3 = rotl(v3, 16n) ^ v2;
    v0 = (v0 + v3) & MASK;
    v3 = rotl(v3, 21n) ^ v0;
    v2 = (v2 + v1) & MASK;
    v1 = rotl(v1, 17n) ^ v2;
    v2 = rotl(v2, 32n);
  };
  const compress = (m: bigint) => {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  };
  const full = bytes.length - (bytes.length % 8);
  const word = (from: number, to: number) => {
    let m = 0n;
    for (let i = to - 1; i >= from; i--) m = (m << 8n) | BigInt(bytes[i] as number);
    return m;
  };
  for (let at = 0; at < full; at += 8) compress(word(at, at + 8));
  // The last block: the remaining bytes, with the length's low byte on top.
  compress((BigInt(bytes.length & 0xff) << 56n) | word(full, bytes.length));
  v2 ^= 0xffn;
  for (let i = 0; i < 4; i++) round();
  return (v0 ^ v1 ^ v2 ^ v3) & MASK;
}

/** The canonical bytes of a point id. */
function idBytes(id: PointId): Uint8Array {
  if (typeof id === 'number') {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(id), true);
    return bytes;
  }
  return Uint8Array.from(Buffer.from(id.replaceAll('-', ''), 'hex'));
}

/** Whether the point is in slice `index` of `total`. */
export function isInSlice(id: PointId, total: number, index: number): boolean {
  return sipHash24(idBytes(id)) % BigInt(total) === BigInt(index);
}
