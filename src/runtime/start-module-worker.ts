/**
 * @module Starts a worker thread on a module of this package, from its built JavaScript or, under tsx (tests,
 * benchmarks, `npm run dev`), from its TypeScript source.
 */
import { Worker } from 'node:worker_threads';

/** What the module reads as `workerData`: `data` is the caller's. */
export interface ModuleWorkerData<T> {
  readonly entry: string;
  readonly tsx?: string;
  readonly data: T;
}

/**
 * The module `name` beside `from` (an `import.meta.url`), with `from`'s extension: `.ts` when this package
 * runs from its sources, `.js` once built.
 */
export function moduleBeside(from: string, name: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}

/**
 * Starts a worker running `entry`, which reads `data` as `workerData.data`. A Node 20 worker does not inherit
 * the parent's `--import tsx`, so a `.ts` entry is started through module-worker-bootstrap.mjs, which
 * registers tsx's loader on the worker's thread first. That bootstrap is a file, not `eval`'d source as the
 * offline model's worker is: native packages located through `bindings` (usearch) look for their own folder
 * from the calling file's path, and from `[worker eval]` that search never ends.
 */
export function startModuleWorker<T>(entry: URL, data: T): Worker {
  const fromSources = entry.pathname.endsWith('.ts');
  const workerData: ModuleWorkerData<T> = {
    entry: entry.href,
    data,
    // tsx is a development dependency: resolved only when running from the sources, where it is installed.
    ...(fromSources ? { tsx: import.meta.resolve('tsx/esm/api') } : {}),
  };
  return new Worker(fromSources ? new URL('./module-worker-bootstrap.mjs', import.meta.url) : entry, {
    workerData,
  });
}
