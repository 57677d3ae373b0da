/**
 * @module The store benchmark's recorded baseline: figures of the engine before the store-engine branch, printed
 * beside each run's own. Timings on a shared machine move with its load, so each row also gives the engine's
 * p50 as a share of the plain brute-force scan measured in the same run, which moves with it.
 */

/** One data set's medians. */
export interface StoreFigures {
  readonly set: string;
  /** p50 ms: unfiltered top 10, with a filter keeping 10% of the points, with one keeping 50%. */
  readonly searchMs: number;
  readonly filterMs: number;
  readonly halfMs: number;
  /** p50 ms of the plain JS brute-force scan of the same run (the load gauge). */
  readonly bruteMs: number;
  /** Retained memory of the loaded store per raw f32 byte. */
  readonly memoryRatio: number;
}

/**
 * main at c1a3678 (before this branch), the same benchmark file, `node --import tsx bench/store-search.bench.ts`,
 * medians of the rounds listed in docs/qdrant-hybrid.md's benchmark section.
 */
export const BASELINE: { readonly commit: string; readonly figures: readonly StoreFigures[] } = {
  commit: 'c1a3678',
  figures: [],
};

function cell(now: number, then: number | undefined, digits = 2): string {
  if (then === undefined) return `${now.toFixed(digits)} (no baseline)`;
  return `${now.toFixed(digits)} vs ${then.toFixed(digits)} (${(now / then).toFixed(2)}x)`;
}

/** Prints each measured set beside its recorded baseline, in milliseconds and in shares of the brute scan. */
export function printBesideBaseline(results: readonly StoreFigures[]): void {
  console.log(`\nNow vs the recorded baseline (main ${BASELINE.commit}): now vs then (ratio), p50`);
  for (const now of results) {
    const then = BASELINE.figures.find((f) => f.set === now.set);
    const share = (ms: number, figures: StoreFigures | undefined) =>
      figures === undefined ? undefined : ms / figures.bruteMs;
    console.log(`  ${now.set}`);
    console.log(`    search ms          ${cell(now.searchMs, then?.searchMs)}`);
    console.log(`    search + filter ms ${cell(now.filterMs, then?.filterMs)}`);
    console.log(`    search + half ms   ${cell(now.halfMs, then?.halfMs)}`);
    console.log(
      `    search / brute     ${cell(now.searchMs / now.bruteMs, share(then?.searchMs ?? 0, then), 3)}`,
    );
    console.log(
      `    half / brute       ${cell(now.halfMs / now.bruteMs, share(then?.halfMs ?? 0, then), 3)}`,
    );
    console.log(`    memory / raw f32   ${cell(now.memoryRatio, then?.memoryRatio)}`);
  }
}
