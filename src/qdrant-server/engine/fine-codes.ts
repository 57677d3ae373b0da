/**
 * @module Finer codes for vectors kept on disk: a second int8 per component (the residual) beside the int8 code,
 * together a 16-bit code g = 256·c + r of x·scale·256, so that a candidate's exact score is bounded within
 * ~1/256 of the int8 bound's width without reading it (ranked-disk-rescore.ts). The int8 code stays what usearch
 * ranks: c = round(g / 256), within 0.5 + 1/512 of x·scale.
 */

/** Fine steps per int8 step. */
export const FINE_STEPS = 256;

/** Splits fine code `g` into its int8 code and residual at `at`; r = g − 256·round(g/256) lies in [−128, 127]. */
function store(g: number, codes: Int8Array, residuals: Int8Array, at: number): number {
  const code = Math.round(g / FINE_STEPS);
  codes[at] = code;
  residuals[at] = g - code * FINE_STEPS;
  return Math.abs(code);
}

/** Writes one vector's codes and residuals at `start` (x·scale·256 rounded); returns the sum of |code|. */
export function encodeFine(
  vector: Float32Array,
  scale: number,
  codes: Int8Array,
  residuals: Int8Array,
  start: number,
): number {
  let l1 = 0;
  for (let i = 0; i < vector.length; i++) {
    l1 += store(Math.round((vector[i] as number) * scale * FINE_STEPS), codes, residuals, start + i);
  }
  return l1;
}

/** Multiplies one vector's fine codes by `ratio` (a narrower scale), rounding; returns the sum of |code|. */
export function rescaleFine(
  codes: Int8Array,
  residuals: Int8Array,
  start: number,
  dim: number,
  ratio: number,
): number {
  let l1 = 0;
  for (let at = start; at < start + dim; at++) {
    const g = (codes[at] as number) * FINE_STEPS + (residuals[at] as number);
    l1 += store(Math.round(g * ratio), codes, residuals, at);
  }
  return l1;
}

/** The dot product of `query` with one vector's fine codes g (in f64: exact to far below the bound's slack). */
export function dotFine(codes: Int8Array, residuals: Int8Array, start: number, query: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < query.length; i++) {
    dot +=
      (query[i] as number) * ((codes[start + i] as number) * FINE_STEPS + (residuals[start + i] as number));
  }
  return dot;
}
