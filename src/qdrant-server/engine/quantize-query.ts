/** @module A query vector's int8 codes for the searches over the slots' int8 codes (vector-search, bounded-rescore). */

/** The query's codes at its own scale (largest |component| → 127), their L1 norm; undefined for a zero query. */
export interface QuantizedQuery {
  readonly codes: Int8Array;
  readonly scale: number;
  readonly l1: number;
}

export function quantizeQuery(query: Float32Array): QuantizedQuery | undefined {
  let max = 0;
  for (let i = 0; i < query.length; i++) max = Math.max(max, Math.abs(query[i] as number));
  if (max === 0) return undefined;
  const scale = 127 / max;
  const codes = new Int8Array(query.length);
  let l1 = 0;
  for (let i = 0; i < query.length; i++) {
    codes[i] = Math.round((query[i] as number) * scale);
    l1 += Math.abs(codes[i] as number);
  }
  return { codes, scale, l1 };
}
