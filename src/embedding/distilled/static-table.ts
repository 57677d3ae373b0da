/**
 * @module The distilled token table: one int8 row per USE-lite vocabulary id, made by
 * scripts/distill-use-lite.mjs (which documents the format) and shipped in models/. Read once, checked
 * against its SHA-256, so a truncated or replaced file fails loudly instead of giving wrong vectors.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ProviderError } from '../../errors/memory-pool-error.js';

/** The table this code was written for; re-running the script with other settings means a new name here. */
export const SHIPPED_TABLE = {
  /** From src/ and from dist/ alike, models/ is three folders up. */
  url: new URL('../../../models/use-lite-static-256.bin', import.meta.url),
  sha256: '701d5d5ff25717c46f74fc065c17018cd61470d618966a38c3b7eed218dba830',
} as const;

const MAGIC = 'MPSTAT01';
const HEADER_BYTES = 16;

/** Rows of int8 values with one scale each: row i, dimension j is `values[i * dims + j] * scales[i]`. */
export interface StaticTable {
  readonly rows: number;
  readonly dims: number;
  readonly scales: Float32Array;
  readonly values: Int8Array;
}

/** Reads and checks a table file; throws a non-retryable ProviderError naming the file when it is unusable. */
export function loadStaticTable(url: URL, sha256: string): StaticTable {
  const refuse = (reason: string, cause?: unknown) =>
    new ProviderError(
      'embedding_failed',
      `the distilled model's table ${url.pathname} ${reason}; reinstall memory-pool or re-run scripts/distill-use-lite.mjs`,
      { retryable: false, cause },
    );
  let file: Buffer;
  try {
    file = readFileSync(url);
  } catch (error) {
    throw refuse('cannot be read', error);
  }
  const actual = createHash('sha256').update(file).digest('hex');
  if (actual !== sha256) throw refuse(`has SHA-256 ${actual}, expected ${sha256}`);
  if (file.toString('latin1', 0, MAGIC.length) !== MAGIC) throw refuse(`does not start with ${MAGIC}`);
  const rows = file.readUInt32LE(8);
  const dims = file.readUInt32LE(12);
  if (file.length !== HEADER_BYTES + rows * 4 + rows * dims) throw refuse(`is not ${rows} x ${dims} long`);
  // Copied out of the Buffer, whose pooled memory need not be 4-byte aligned for a Float32Array view.
  const body = file.subarray(HEADER_BYTES);
  const scales = new Float32Array(rows);
  Buffer.from(scales.buffer).set(body.subarray(0, rows * 4));
  const values = new Int8Array(rows * dims);
  Buffer.from(values.buffer).set(body.subarray(rows * 4));
  return { rows, dims, scales, values };
}
