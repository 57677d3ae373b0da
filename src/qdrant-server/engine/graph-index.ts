/**
 * @module An approximate (HNSW) index over one VectorSlots block, as Qdrant builds one once a segment passes
 * its full-scan threshold. It is a cache of the slots, never the truth: it starts when the block first holds
 * `threshold` vectors (at load, that is while opening the store, unless a saved graph is adopted: see below),
 * and is filled off the request path in time slices. Vectors written since the
 * last slice wait in `pending`; graph-search.ts scores those exactly, so a search sees every write at once.
 * usearch's `remove` is never called: after enough remove/add cycles it loops forever (2.25.3). A vector that
 * leaves the slots leaves a dead key, skipped at search time; past DEAD_SHARE dead keys the graph is dropped and
 * rebuilt from the live slots, as Qdrant's vacuum optimizer does. A failing usearch call disables the graph
 * (searches go exact) instead of throwing into a write that SQLite already committed. A graph saved with the
 * collection (graph-persistence.ts) is adopted at load instead of rebuilt, its unchanged points only.
 */
import { Index, MetricKind, ScalarKind } from 'usearch';
import type { Distance } from './engine-api.js';
import type { SlotOwner, VectorSlots } from './vector-slots.js';

/** What builds the graph: Qdrant's `hnsw_config` names, and the size past which searches use it. */
export interface GraphOptions {
  readonly distance: Distance;
  /** Links per node (`m`). */
  readonly m: number;
  /** Beam width while inserting (`ef_construct`), also the default search beam, as in Qdrant. */
  readonly efConstruct: number;
  /** Vectors below which searches stay exact (and no graph is built, unless `buildAt` says otherwise). */
  readonly threshold: number;
  /**
   * Vectors at which the graph is built, when the collection sets Qdrant's `indexing_threshold` (0: never);
   * searches still use it only from `threshold`, as Qdrant searches a small indexed segment exactly.
   */
  readonly buildAt?: number;
}

/** Time one slice of background indexing may take before handing the event loop back. */
const SLICE_MS = 8;

/** Share of dead keys in the graph past which it is rebuilt from the live slots. */
const DEAD_SHARE = 0.25;

/**
 * Share of the graph added since it was last saved past which a settled graph (nothing pending) is saved
 * again: every save writes the whole graph, so growth by half bounds the bytes written to about twice the
 * final graph, and a kill -9 costs at most re-adding that share at the next start.
 */
const SAVE_SHARE = 0.5;

/** What a graph is saved as: the usearch index and the owner of each of its live keys. */
export interface GraphState<Owner> {
  readonly index: Index;
  readonly owners: ReadonlyMap<number, Owner>;
  /** Keys in the usearch index, live and dead. */
  readonly size: number;
  /** The next key to add: above every key ever added, dead ones included (usearch refuses a key twice). */
  readonly nextKey: number;
}

/**
 * The usearch index for a distance: int8 for Cosine (stored vectors are unit length), f32 otherwise (f16
 * overflows or flattens Dot/Euclid vectors of extreme scale and loses their neighbours).
 */
export function createIndex(dim: number, options: GraphOptions): Index {
  const cosine = options.distance === 'Cosine';
  return new Index({
    dimensions: dim,
    metric: cosine ? MetricKind.Cos : options.distance === 'Dot' ? MetricKind.IP : MetricKind.L2sq,
    quantization: cosine ? ScalarKind.I8 : ScalarKind.F32,
    connectivity: options.m,
    expansion_add: options.efConstruct,
    // The beam is set per search by the number of candidates asked for (usearch uses max(this, k)).
    expansion_search: 1,
    multi: false,
  });
}

/** The HNSW graph of one dense vector name. Owners carry their graph key (`graphKey`, -1 when not in it). */
export class GraphIndex<Owner extends SlotOwner> {
  #index: Index | undefined;
  /** Indexed owners by graph key; a key whose owner left the slots is deleted here at once. */
  readonly #owners = new Map<number, Owner>();
  readonly #pending = new Set<Owner>();
  /** Keys of removed owners still in the graph, skipped at search time until the next rebuild. */
  #dead = 0;
  /** Set once usearch failed: the graph is dropped for good and searches stay exact. */
  #disabled = false;
  /** Set when the dead keys passed DEAD_SHARE: the next slice starts a new graph from the live slots. */
  #rebuild = false;
  #nextKey = 0;
  #scheduled = false;
  #closed = false;
  /** Keys added since the graph was last saved or adopted. */
  #unsaved = 0;
  /** Called when a slice left nothing pending and enough was added since the last save (SAVE_SHARE). */
  onSaveDue: (() => void) | undefined;

  constructor(
    readonly slots: VectorSlots<Owner>,
    readonly options: GraphOptions,
  ) {}

  /** Whether searches should use the graph: there is one and the slots hold at least `threshold` vectors. */
  get active(): boolean {
    return !this.#disabled && this.#index !== undefined && this.slots.count >= this.options.threshold;
  }

  /** Vectors in the graph (Qdrant's `indexed_vectors_count`). */
  get indexedCount(): number {
    return this.#owners.size;
  }

  /** Owners written since the last slice, not yet in the graph. */
  get pending(): ReadonlySet<Owner> {
    return this.#pending;
  }

  /** Called by the slots after a vector was stored for `owner`. */
  added(owner: Owner): void {
    if (this.#closed || this.#disabled) return;
    if (this.#index === undefined) {
      const buildAt = this.options.buildAt ?? this.options.threshold;
      if (this.slots.count < buildAt || this.options.distance === 'Manhattan') return;
      this.#start();
    } else this.#pending.add(owner);
    this.#schedule();
  }

  /** Called by the slots when `owner` lost its vector (deleted or rewritten). */
  removed(owner: Owner): void {
    if (this.#index === undefined || this.#pending.delete(owner)) return;
    const key = owner.graphKey ?? -1;
    if (key < 0) return;
    this.#owners.delete(key);
    owner.graphKey = -1;
    this.#dead++;
    // Rebuilt in the next slice, not here: the slots are mid-change while they call their observer.
    if (this.#dead > DEAD_SHARE * (this.#owners.size + this.#dead)) {
      this.#rebuild = true;
      this.#schedule();
    }
  }

  /**
   * Up to `count` indexed owners nearest `query` by the graph's approximate distance, best first; owners
   * removed since are left out. `count` is also the beam width (Qdrant's `hnsw_ef`).
   */
  nearestOwners(query: Float32Array, count: number): Owner[] {
    const index = this.#index;
    const size = this.#owners.size + this.#dead;
    if (index === undefined || this.#disabled || this.#owners.size === 0) return [];
    // Dead keys take places in the result: ask for as many more as their share.
    const asked = Math.min(size, Math.ceil((count * size) / this.#owners.size));
    const owners: Owner[] = [];
    try {
      for (const key of index.search(query, asked, 1).keys) {
        const owner = this.#owners.get(Number(key));
        if (owner !== undefined) owners.push(owner);
      }
    } catch (error) {
      this.#disable(error);
      return [];
    }
    return owners;
  }

  /** Stops background work and frees the graph (the collection was dropped or the store closed). */
  close(): void {
    this.#closed = true;
    this.#index = undefined;
    this.#owners.clear();
    this.#pending.clear();
    this.#dead = 0;
    this.#rebuild = false;
  }

  /** Keys added since the last save or adoption; 0 means the saved graph is as good as this one. */
  get unsaved(): number {
    return this.#unsaved;
  }

  /** The graph as it stands, to save; undefined when there is none (under the threshold, disabled, closed). */
  state(): GraphState<Owner> | undefined {
    if (this.#index === undefined || this.#disabled || this.#closed) return undefined;
    return {
      index: this.#index,
      owners: this.#owners,
      size: this.#owners.size + this.#dead,
      nextKey: this.#nextKey,
    };
  }

  /** Called once the state from `state()` is saved. */
  saved(): void {
    this.#unsaved = 0;
  }

  /**
   * Takes in a saved graph (at load, before any slice ran): `owners` maps each of its keys whose point is
   * unchanged since the save to that point's owner; its other keys are dead, and every owner not in it is
   * pending, added by the background slices as after a write. Past DEAD_SHARE dead keys it is rebuilt anyway.
   */
  adopt(index: Index, owners: ReadonlyMap<number, Owner>, nextKey: number): void {
    if (this.#closed || this.#disabled) return;
    for (const owner of this.#owners.values()) owner.graphKey = -1;
    this.#owners.clear();
    this.#pending.clear();
    for (const [key, owner] of owners) {
      owner.graphKey = key;
      this.#owners.set(key, owner);
    }
    const size = Number(index.size());
    this.#index = index;
    this.#nextKey = nextKey;
    this.#dead = size - owners.size;
    this.#unsaved = 0;
    for (const owner of this.slots.ownersSnapshot()) if ((owner.graphKey ?? -1) < 0) this.#pending.add(owner);
    this.#rebuild = this.#dead > DEAD_SHARE * size;
    if (this.#rebuild || this.#pending.size > 0) this.#schedule();
  }

  /** Whether usearch failed and the graph was dropped (searches are exact from then on). */
  get disabled(): boolean {
    return this.#disabled;
  }

  /** Runs every pending insert and removal now, in one turn: for tests and benchmarks. */
  flush(): void {
    while (this.#work(Number.POSITIVE_INFINITY));
  }

  /** A new empty graph with every live owner pending: the first build, and each rebuild past DEAD_SHARE. */
  #start(): void {
    try {
      this.#index = createIndex(this.slots.dim, this.options);
    } catch (error) {
      this.#disable(error);
      return;
    }
    for (const owner of this.#owners.values()) owner.graphKey = -1;
    this.#owners.clear();
    this.#dead = 0;
    for (const existing of this.slots.ownersSnapshot()) this.#pending.add(existing);
  }

  /** Drops the graph after a usearch failure; the slots (the truth) are untouched, searches go exact. */
  #disable(error: unknown): void {
    this.#disabled = true;
    this.#index = undefined;
    for (const owner of this.#owners.values()) owner.graphKey = -1;
    this.#owners.clear();
    this.#pending.clear();
    this.#dead = 0;
    console.error(`memory-pool: HNSW graph disabled, searches stay exact: ${String(error)}`);
  }

  #schedule(): void {
    if (this.#scheduled || this.#closed || this.#disabled) return;
    this.#scheduled = true;
    // setImmediate: after the I/O callbacks of this turn, so requests that are waiting are served first.
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#work(SLICE_MS)) this.#schedule();
      else if (this.#unsaved > 0 && this.#unsaved >= SAVE_SHARE * this.#owners.size) this.onSaveDue?.();
    });
  }

  /** One slice of inserts; true when work is left. Never throws: a usearch failure disables the graph. */
  #work(budgetMs: number): boolean {
    if (this.#closed || this.#disabled) return false;
    if (this.#rebuild) {
      this.#rebuild = false;
      this.#start();
    }
    const index = this.#index;
    if (index === undefined) return false;
    const deadline = performance.now() + budgetMs;
    try {
      for (const owner of this.#pending) {
        // A pending owner holds a slot (removal takes it out of `pending` first); the check is a safeguard.
        if (owner.slot < 0) {
          this.#pending.delete(owner);
          continue;
        }
        // On disk this is one SQLite read, small beside the insert itself.
        const vector = this.slots.copy(owner.slot);
        if (vector === undefined) {
          this.#pending.delete(owner);
          continue;
        }
        const key = this.#nextKey++;
        index.add(BigInt(key), vector, 1);
        this.#pending.delete(owner);
        owner.graphKey = key;
        this.#owners.set(key, owner);
        this.#unsaved++;
        if (performance.now() > deadline) return this.#pending.size > 0;
      }
    } catch (error) {
      this.#disable(error);
    }
    return false;
  }
}
