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
 * main at c1a3678 (before the store-engine branch) running this benchmark file without `--quick`, one round,
 * on 2026-12-03 at 17:58-18:12 UTC on a 2-core machine: load average about 1 for the 10k sets and 100k x 1536,
 * rising towards 4 during 100k x 3072 as other work started (its milliseconds run high; the shares of the
 * brute scan, measured in the same run, move with the load). The run before the store-engine branch recorded
 * figures at load 14-22; these replace them.
 */
export const BASELINE: { readonly commit: string; readonly figures: readonly StoreFigures[] } = {
  commit: 'c1a3678',
  figures: [
    { set: '10k x 1536', searchMs: 1.91, filterMs: 3.36, halfMs: 5.23, bruteMs: 27.2, memoryRatio: 2.15 },
    { set: '10k x 3072', searchMs: 3.39, filterMs: 4.64, halfMs: 7.61, bruteMs: 63.1, memoryRatio: 2.1 },
    { set: '100k x 1536', searchMs: 8.28, filterMs: 17.96, halfMs: 38.3, bruteMs: 287.9, memoryRatio: 1.73 },
    {
      set: '100k x 3072',
      searchMs: 26.17,
      filterMs: 27.23,
      halfMs: 71.62,
      bruteMs: 832.7,
      memoryRatio: 1.69,
    },
  ],
};

/**
 * A filtered search keeping half the points over an unfiltered one (p50 / p50), main at 6259b76 before the
 * filter was tested only on the int8 pass's candidates, from a quiet run of this benchmark.
 */
export const HALF_FILTER_BASELINE: {
  readonly commit: string;
  readonly ratios: Readonly<Record<string, number>>;
} = {
  commit: '6259b76',
  ratios: { '10k x 1536': 4.16 / 2.07, '100k x 1536': 15.1 / 8.6 },
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
    const halfThen = HALF_FILTER_BASELINE.ratios[now.set];
    const halfSource = halfThen === undefined ? '' : ` (then: main ${HALF_FILTER_BASELINE.commit})`;
    console.log(`    half / search      ${cell(now.halfMs / now.searchMs, halfThen)}${halfSource}`);
    console.log(`    memory / raw f32   ${cell(now.memoryRatio, then?.memoryRatio)}`);
  }
}
