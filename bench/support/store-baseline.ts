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
 * main at c1a3678 (before this branch) running this benchmark file with `--quick`, mean of two rounds
 * interleaved with the branch's own on 2026-12-03, on a 2-core machine at load average 14-22 (hence the
 * large milliseconds: compare the shares of the brute scan, or rerun both side by side). Memory: 2.15x at
 * 1536 dims from a 20k-point reopen (the 10k bench figure is too noisy to keep), 2.27x at 3072 from round 1.
 * No 100k baseline was recorded.
 */
export const BASELINE: { readonly commit: string; readonly figures: readonly StoreFigures[] } = {
  commit: 'c1a3678',
  figures: [
    {
      set: '10k x 1536',
      searchMs: 26.5,
      filterMs: 42.0,
      halfMs: 58.7,
      bruteMs: 339.8,
      memoryRatio: 2.15,
    },
    {
      set: '10k x 3072',
      searchMs: 26.8,
      filterMs: 38.1,
      halfMs: 77.4,
      bruteMs: 666.8,
      memoryRatio: 2.27,
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
