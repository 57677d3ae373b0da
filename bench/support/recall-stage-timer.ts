/**
 * @module Where one in-process /retrieve's time goes (bench only): times the query's embedding, each call the
 * store client makes (the REST ones through the official client's methods, the posted ones through the store
 * thread's handle), the journal's reads and the service thread's GC pauses, per request, by wrapping them.
 * Requests must be asked one at a time: a call is charged to the request open when it starts.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { Embedder } from '../../src/embedding/embedder.js';
import { ChunkQueue } from '../../src/journal/chunk-queue.js';
import { ForgetJournal } from '../../src/journal/forget-journal.js';
import type { QdrantServer } from '../../src/qdrant-server/http/server.js';
import type { StoreThreadOptions } from '../../src/qdrant-server/thread/start-store-thread.js';

type Interval = readonly [number, number];

/** One request's calls, by stage: [start, end] in ms since the request began. */
export interface StageRecord {
  readonly total: number;
  readonly stages: ReadonlyMap<string, readonly Interval[]>;
}

export interface StageTimer {
  /** The query embedder, timed. */
  wrapEmbedder(embedder: Embedder): Embedder;
  /** MemoryServiceOptions.startStore: the store thread, with its posted reads timed. */
  wrapStartStore(
    start: (options: StoreThreadOptions) => Promise<QdrantServer>,
  ): (options: StoreThreadOptions) => Promise<QdrantServer>;
  /** Times `ask` (one /retrieve) and keeps its record. */
  time<T>(ask: () => Promise<T>): Promise<T>;
  readonly records: readonly StageRecord[];
}

/** The stage a REST call of recall belongs to, from the client method and its arguments. */
function nameRestCall(method: string, args: unknown[]): string {
  const body = (args[1] ?? {}) as { using?: string };
  if (method === 'query') return body.using === 'bm25' ? 'parts by words' : 'parts by vector';
  if (method === 'search') return 'chunks without parts (search)';
  if (method === 'count') return 'chunks without parts (count)';
  if (method === 'retrieve') return 'chunk reads by id';
  return `store: ${method}`;
}

export function startStageTimer(): StageTimer {
  const records: StageRecord[] = [];
  let open: { started: number; stages: Map<string, Interval[]> } | undefined;
  const note = (stage: string, started: number) => {
    if (open === undefined) return;
    const list = open.stages.get(stage) ?? [];
    list.push([started - open.started, performance.now() - open.started]);
    open.stages.set(stage, list);
  };
  const timed =
    <A extends unknown[], R>(stage: (args: A) => string, run: (...args: A) => R) =>
    (...args: A): R => {
      const started = performance.now();
      const result = run(...args);
      if (result instanceof Promise) {
        const name = stage(args);
        void result.then(
          () => note(name, started),
          () => note(name, started),
        );
      } else note(stage(args), started);
      return result;
    };
  const client = QdrantClient.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['query', 'search', 'retrieve', 'count', 'getCollection', 'collectionExists']) {
    const original = client[method]!;
    client[method] = function (this: unknown, ...args: unknown[]) {
      return timed(
        () => nameRestCall(method, args),
        () => original.apply(this, args),
      )();
    };
  }
  const patchSync = (proto: Record<string, unknown>, method: string, stage: string) => {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      return timed(
        () => stage,
        () => original.apply(this, args),
      )();
    };
  };
  patchSync(ChunkQueue.prototype as never, 'chunkMessages', 'journal: chunk messages');
  patchSync(ForgetJournal.prototype as never, 'forgottenAmong', 'journal: forgotten ids');
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (open === undefined || entry.startTime < open.started) continue;
      const list = open.stages.get('GC (service thread)') ?? [];
      list.push([entry.startTime - open.started, entry.startTime + entry.duration - open.started]);
      open.stages.set('GC (service thread)', list);
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  return {
    records,
    wrapEmbedder: (embedder) => ({
      model: embedder.model,
      dimensions: embedder.dimensions,
      inputWindow: embedder.inputWindow,
      probe: () => embedder.probe(),
      embed: timed(
        () => 'query embedding',
        (texts: readonly string[], options?: Parameters<Embedder['embed']>[1]) =>
          embedder.embed(texts, options),
      ),
    }),
    wrapStartStore: (start) => async (options) => {
      const server = (await start(options)) as QdrantServer & {
        heldTerms?: (...args: unknown[]) => Promise<unknown>;
        denseCosines?: (...args: unknown[]) => Promise<unknown>;
        read?: (collection: string, request: { kind: string; body: unknown }) => Promise<unknown>;
      };
      const { read } = server;
      return {
        ...server,
        ...(server.heldTerms
          ? { heldTerms: timed(() => 'noise cut: held terms (posted)', server.heldTerms) }
          : {}),
        ...(server.denseCosines
          ? { denseCosines: timed(() => 'word-only parts: cosines (posted)', server.denseCosines) }
          : {}),
        ...(read
          ? {
              read: timed(
                ([collection, request]: [string, { kind: string; body: unknown }]) =>
                  `${nameRestCall(request.kind, [collection, request.body])} (posted)`,
                (collection: string, request: { kind: string; body: unknown }) => read(collection, request),
              ),
            }
          : {}),
      } as QdrantServer;
    },
    time: async (ask) => {
      open = { started: performance.now(), stages: new Map() };
      const current = open;
      try {
        return await ask();
      } finally {
        // GC entries arrive after the pause: let the observer run before the record closes.
        await new Promise((resolve) => setImmediate(resolve));
        records.push({ total: performance.now() - current.started, stages: current.stages });
        open = undefined;
      }
    },
  };
}

/** The time covered by `intervals` (overlaps counted once). */
export function measureUnion(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let end = -Infinity;
  for (const [from, to] of sorted) {
    if (to <= end) continue;
    covered += to - Math.max(from, end);
    end = to;
  }
  return covered;
}

/** Per stage: p50 and p95 of its wall time per request (0 in a request that had none), and how often it ran. */
export function summarizeStages(records: readonly StageRecord[]): string[] {
  const percentile = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ??
    0;
  const names = [...new Set(records.flatMap((r) => [...r.stages.keys()]))].sort();
  const row = (name: string, values: number[], calls: number) =>
    `| ${name} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 95).toFixed(1)} | ${(calls / records.length).toFixed(2)} |`;
  const lines = ['| stage | p50 ms | p95 ms | calls per recall |', '|---|---|---|---|'];
  lines.push(
    row(
      'whole /retrieve (HTTP, as the client sees it)',
      records.map((r) => r.total),
      records.length,
    ),
  );
  for (const name of names) {
    const values = records.map((r) => measureUnion(r.stages.get(name) ?? []));
    lines.push(
      row(
        name,
        values,
        records.reduce((n, r) => n + (r.stages.get(name)?.length ?? 0), 0),
      ),
    );
  }
  const outside = records.map((r) => {
    const timedStages = [...r.stages].filter(([name]) => !name.startsWith('GC')).flatMap(([, list]) => list);
    return r.total - measureUnion(timedStages);
  });
  lines.push(row('outside every timed stage (service thread, HTTP in and out)', outside, records.length));
  return lines;
}
