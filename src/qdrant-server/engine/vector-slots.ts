/**
 * @module One collection's vectors in a single contiguous Float32Array, so exact search can hand the
 * whole block to usearch (or a tight JS loop) without gathering. Deleting swaps the last slot into the hole.
 * Beside it sits an int8 copy (one global scale) that a search scans first: a quarter of the memory traffic,
 * which is what bounds an exact scan here. The f32 values stay the truth; see vector-search.ts.
 * With Qdrant's `on_disk: true` the f32 block is dropped and only the codes stay in RAM, each with a residual
 * byte (fine-codes.ts) that bounds a vector's score tightly without reading it: every f32 read then goes to
 * `source` (the collection's SQLite rows, stored-vectors.ts), which holds the same values bit for bit.
 * Past 300 lines because both layouts share every slot operation (add, replace, swap-remove, re-quantize, grow).
 */
import { dotFine, encodeFine, FINE_STEPS, rescaleFine } from './fine-codes.js';
import { RecentVectors } from './recent-vectors.js';

/** Who owns a slot; the slot number is written back when a swap-remove moves the owner. */
export interface SlotOwner {
  slot: number;
  /** The owner's key in the approximate index (graph-index.ts), -1 or absent when it is not in one. */
  graphKey?: number;
}

/** Told of every vector stored and removed, so the approximate index follows the slots. */
export interface SlotObserver<Owner extends SlotOwner> {
  added(owner: Owner): void;
  removed(owner: Owner): void;
}

/** Reads the stored f32 vectors of owners that hold a slot (undefined for one the store no longer has). */
export type VectorSource<Owner> = (owners: readonly Owner[]) => (Float32Array | undefined)[];

/** Some owners' f32 vectors: owner i's values start at `offsets[i]` in `data`, -1 when it has none now. */
export interface VectorRows {
  readonly data: Float32Array;
  readonly offsets: Int32Array;
}

/** Owners read from the source per call while re-reading everything (turning on_disk off, re-quantizing). */
const READ_BATCH = 1024;
const INITIAL_CAPACITY = 64;
/**
 * Capacity grows by half when full: at most a third of the block is unused (doubling left up to half, 1.3x the
 * vectors' size at 100k points), for about twice the amortized copying, which is small beside the SQLite write.
 */
const GROWTH = 1.5;
/** int8 codes use ±127 for the largest component seen times this headroom, so most growth needs no re-quantizing. */
const QUANT_HEADROOM = 1.25;

/** Dense storage of equally sized f32 vectors with stable owners per slot. */
export class VectorSlots<Owner extends SlotOwner> {
  /** The f32 values by slot; undefined when they are on disk (read through `source`). */
  #buffer: Float32Array | undefined;
  #codeBuffer: Int8Array;
  /** On disk only: each code's residual (fine-codes.ts), for a tight bound per vector without reading it. */
  #residuals: Int8Array | undefined;
  #capacity = INITIAL_CAPACITY;
  /** Largest |component| the codes were scaled for; codes = round(x · scale). */
  #quantizedFor = 0;
  /** Multiplier from f32 values to int8 codes. */
  scale = 1;
  /** Largest sum of |code| over one stored vector since the last re-quantizing; only grows. */
  maxCodeL1 = 0;
  /**
   * How far any code may be from its value, in code units: |x_i·scale − c_i| <= codeError. 0.5 for codes rounded
   * from the f32 values; more after on-disk codes were re-scaled from the old codes (#rescaleCodes).
   */
  codeError = 0.5;
  /** How far any fine code may be from its value, in fine steps: |x_i·scale·256 − g_i| <= fineError. */
  fineError = 0.5;
  readonly #owners: Owner[] = [];
  /** Largest squared norm ever stored; only grows, which keeps the search's error bound conservative. */
  maxNormSquared = 0;
  observer: SlotObserver<Owner> | undefined;
  /** Where the f32 values are read from while they are on disk. */
  source: VectorSource<Owner> | undefined;
  /** The on-disk vectors read lately (created at the first read). */
  #recent: RecentVectors<Owner> | undefined;

  constructor(readonly dim: number) {
    this.#buffer = new Float32Array(this.#capacity * dim);
    this.#codeBuffer = new Int8Array(this.#capacity * dim);
  }

  /** The int8 codes of the live vectors, slot after slot, a view at offset 0. */
  codes(): Int8Array {
    return this.#codeBuffer.subarray(0, this.#owners.length * this.dim);
  }

  /**
   * On disk, the most slot's vector can score against `query` (dot product; `queryL1` = Σ|q_i|), from its fine
   * codes: q·x <= (q·g + fineError·|q|₁) / (scale·256); undefined in RAM. 1e-6: the exact score is an f32 rounding.
   */
  fineBound(slot: number, query: Float32Array, queryL1: number): number | undefined {
    const residuals = this.#residuals;
    if (residuals === undefined) return undefined;
    const dot = dotFine(this.#codeBuffer, residuals, slot * this.dim, query);
    return (dot + this.fineError * queryL1) / (this.scale * FINE_STEPS) + 1e-6;
  }

  get count(): number {
    return this.#owners.length;
  }

  /** Whether the f32 values are on disk (only the int8 codes are in RAM). */
  get onDisk(): boolean {
    return this.#buffer === undefined;
  }

  /** Bytes of RAM the f32 block and the int8 codes take (capacity included), for stats and tests. */
  memory(): { values: number; codes: number } {
    const residuals = this.#residuals?.byteLength ?? 0;
    return { values: this.#buffer?.byteLength ?? 0, codes: this.#codeBuffer.byteLength + residuals };
  }

  /**
   * The live vectors, slot after slot, a view starting at offset 0 (usearch ignores view offsets); undefined
   * when they are on disk.
   */
  data(): Float32Array | undefined {
    return this.#buffer?.subarray(0, this.#owners.length * this.dim);
  }

  /**
   * The f32 values of `owners` as they are now: in RAM a view of the block at each one's slot (no copy); on
   * disk one read of them all from the source. An owner without a slot (rewritten or deleted) gets offset -1.
   */
  rowsOf(owners: readonly Owner[]): VectorRows {
    const offsets = new Int32Array(owners.length);
    if (this.#buffer !== undefined) {
      for (let i = 0; i < owners.length; i++) {
        const slot = (owners[i] as Owner).slot;
        offsets[i] = slot < 0 ? -1 : slot * this.dim;
      }
      return { data: this.#buffer, offsets };
    }
    const live = owners.filter((owner) => owner.slot >= 0);
    const read = live.length === 0 ? [] : this.#read(live);
    const data = new Float32Array(read.length * this.dim);
    let next = 0;
    for (let i = 0, r = 0; i < owners.length; i++) {
      if ((owners[i] as Owner).slot < 0) {
        offsets[i] = -1;
        continue;
      }
      const vector = read[r++];
      if (vector === undefined) offsets[i] = -1;
      else {
        data.set(vector, next * this.dim);
        offsets[i] = next++ * this.dim;
      }
    }
    return { data, offsets };
  }

  /** Drops the f32 block: from now on values are read through `source` (Qdrant's `on_disk: true`). */
  moveToDisk(): void {
    if (this.source === undefined) throw new Error('vector slots: no source to read on-disk vectors from');
    const buffer = this.#buffer;
    if (buffer === undefined) return;
    // The codes afresh with their residuals, from the values while they are still here (one pass in RAM).
    this.#residuals = new Int8Array(this.#capacity * this.dim);
    this.#encodeAll(buffer);
    this.#buffer = undefined;
  }

  /**
   * Reads every vector back into a new f32 block (`on_disk` turned off): through `scan` when given (it hands
   * each owner's stored vector to `put`, e.g. one pass over the collection's rows), else a read per owner.
   */
  moveToMemory(scan?: (put: (owner: Owner, vector: Float32Array) => void) => void): void {
    if (this.#buffer !== undefined) return;
    const buffer = new Float32Array(this.#capacity * this.dim);
    if (scan === undefined) this.#forEachStored((slot, vector) => buffer.set(vector, slot * this.dim));
    else
      scan((owner, vector) => {
        if (owner.slot >= 0 && vector.length === this.dim) buffer.set(vector, owner.slot * this.dim);
      });
    this.#buffer = buffer;
    this.#recent?.clear();
    // Codes split from fine codes (or re-scaled) carry a wider error: with the values back, round them afresh.
    this.#residuals = undefined;
    this.#encodeAll(buffer);
  }

  owner(slot: number): Owner {
    return this.#owners[slot] as Owner;
  }

  /** Every slot's owner as of now, slot order (a copy: a single memcpy, not a call per slot). */
  ownersSnapshot(): Owner[] {
    return this.#owners.slice();
  }

  /** Appends a vector and sets `owner.slot`. */
  add(owner: Owner, vector: Float32Array): void {
    if (this.#owners.length === this.#capacity) this.#grow();
    owner.slot = this.#owners.length;
    this.#owners.push(owner);
    this.#write(owner.slot, vector);
    this.observer?.added(owner);
  }

  /** Replaces the vector and owner of an existing slot; the old owner no longer has one. */
  replace(slot: number, owner: Owner, vector: Float32Array): void {
    const previous = this.#owners[slot] as Owner;
    if (previous !== owner) previous.slot = -1;
    this.observer?.removed(previous);
    owner.slot = slot;
    this.#owners[slot] = owner;
    this.#write(slot, vector);
    this.observer?.added(owner);
  }

  /** Frees a slot by moving the last vector into it. */
  remove(slot: number): void {
    const last = this.#owners.length - 1;
    const removed = this.#owners[slot] as Owner;
    if (slot !== last) {
      const moved = this.#owners[last] as Owner;
      this.#buffer?.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.#codeBuffer.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.#residuals?.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.#owners[slot] = moved;
      moved.slot = slot;
    }
    this.#owners.pop();
    removed.slot = -1;
    this.observer?.removed(removed);
  }

  /**
   * A copy of one vector (views are unsafe to hand to usearch and to callers); undefined only when it is on
   * disk and the store no longer has it.
   */
  copy(slot: number): Float32Array | undefined {
    if (this.#buffer !== undefined) return this.#buffer.slice(slot * this.dim, (slot + 1) * this.dim);
    return this.#read([this.#owners[slot] as Owner])[0]?.slice();
  }

  /** The owners' stored vectors, through the cache of recent reads (shared arrays: never written to). */
  #read(owners: readonly Owner[]): (Float32Array | undefined)[] {
    const source = this.source;
    if (source === undefined) throw new Error('vector slots: no source to read on-disk vectors from');
    this.#recent ??= new RecentVectors<Owner>(this.dim);
    return this.#recent.read(owners, source);
  }

  /** Calls `visit` with every live slot's stored vector, read in batches (the f32 block is not there). */
  #forEachStored(visit: (slot: number, vector: Float32Array) => void): void {
    const source = this.source;
    if (source === undefined) throw new Error('vector slots: no source to read on-disk vectors from');
    for (let start = 0; start < this.#owners.length; start += READ_BATCH) {
      const owners = this.#owners.slice(start, start + READ_BATCH);
      // Straight from the source: reading everything would only flush the cache of recent reads.
      source(owners).forEach((vector, i) => {
        if (vector !== undefined) visit(start + i, vector);
      });
    }
  }

  #write(slot: number, vector: Float32Array): void {
    this.#buffer?.set(vector, slot * this.dim);
    let squared = 0;
    let maxAbs = 0;
    for (let i = 0; i < vector.length; i++) {
      const x = vector[i] as number;
      squared += x * x;
      if (Math.abs(x) > maxAbs) maxAbs = Math.abs(x);
    }
    if (squared > this.maxNormSquared) this.maxNormSquared = squared;
    if (maxAbs > this.#quantizedFor * QUANT_HEADROOM) this.#requantize(maxAbs, slot, vector);
    else this.#encode(slot, vector);
  }

  #encode(slot: number, vector: Float32Array): void {
    const start = slot * this.dim;
    const residuals = this.#residuals;
    let l1 = 0;
    if (residuals !== undefined) l1 = encodeFine(vector, this.scale, this.#codeBuffer, residuals, start);
    else
      for (let i = 0; i < this.dim; i++) {
        const code = Math.round((vector[i] as number) * this.scale);
        this.#codeBuffer[start + i] = code;
        l1 += Math.abs(code);
      }
    if (l1 > this.maxCodeL1) this.maxCodeL1 = l1;
  }

  /**
   * New codes for every slot at a wider scale. In RAM they are rounded afresh from the f32 values. On disk they
   * are re-scaled from the old fine codes, since reading every vector back would stall the upsert (a one-point
   * write into 30,000 × 512 read 30,001 rows, 1.2 s): g' = round(g·r) with r = new scale / old scale, so
   * |x_i·s'·256 − g'_i| <= fineError·r + 0.5, and fineError grows to that (r < 1/QUANT_HEADROOM keeps it under
   * 2.5 fine steps, 0.01 of an int8 step). The written vector itself is rounded from its value, at hand.
   */
  #requantize(maxAbs: number, written: number, vector: Float32Array): void {
    const previousScale = this.scale;
    const hadValues = this.#quantizedFor > 0;
    this.#quantizedFor = maxAbs;
    this.scale = 127 / (maxAbs * QUANT_HEADROOM);
    const buffer = this.#buffer;
    if (buffer !== undefined) {
      this.#encodeAll(buffer);
      return;
    }
    this.maxCodeL1 = 0;
    // Until a non-zero component was seen every code is 0 and exact: nothing to re-scale, nor error to add.
    if (hadValues) this.#rescaleCodes(this.scale / previousScale, written);
    this.#encode(written, vector);
  }

  /** Rounds every slot's code (and on disk its residual) afresh from the f32 block at the current scale. */
  #encodeAll(buffer: Float32Array): void {
    this.maxCodeL1 = 0;
    this.fineError = 0.5;
    this.codeError = this.#residuals === undefined ? 0.5 : 0.5 + this.fineError / FINE_STEPS;
    for (let slot = 0; slot < this.#owners.length; slot++) {
      this.#encode(slot, buffer.subarray(slot * this.dim, (slot + 1) * this.dim));
    }
  }

  /** Multiplies every fine code but slot `skip`'s by `ratio` (< 1), rounding, and widens the errors by the rounding. */
  #rescaleCodes(ratio: number, skip: number): void {
    const residuals = this.#residuals as Int8Array;
    for (let slot = 0; slot < this.#owners.length; slot++) {
      if (slot === skip) continue;
      const l1 = rescaleFine(this.#codeBuffer, residuals, slot * this.dim, this.dim, ratio);
      if (l1 > this.maxCodeL1) this.maxCodeL1 = l1;
    }
    this.fineError = this.fineError * ratio + 0.5;
    this.codeError = 0.5 + this.fineError / FINE_STEPS;
  }

  /**
   * The error bound of a quantized dot product, times scale · the query's scale: with the query's codes d rounded
   * to within 0.5 (|d|₁ = queryL1) and a stored vector's codes c (|c|₁ = codeL1) to within codeError,
   * |q·x − c·d/(s·t)| <= (codeError·|d|₁ + 0.5·|c|₁ + 0.5·codeError·dim) / (s·t).
   */
  errorUnits(queryL1: number, codeL1: number): number {
    return this.codeError * queryL1 + 0.5 * codeL1 + 0.5 * this.codeError * this.dim;
  }

  /** Makes room for `count` vectors in all, so loading a known number of points never over-allocates. */
  reserve(count: number): void {
    if (count > this.#capacity) this.#resize(count);
  }

  /** Gives back unused capacity (after loading, when the number of vectors is known). */
  trim(): void {
    if (this.#capacity > Math.max(INITIAL_CAPACITY, this.#owners.length)) {
      this.#resize(Math.max(INITIAL_CAPACITY, this.#owners.length));
    }
  }

  #grow(): void {
    this.#resize(Math.ceil(this.#capacity * GROWTH));
  }

  #resize(capacity: number): void {
    this.#capacity = capacity;
    const used = this.#owners.length * this.dim;
    if (this.#buffer !== undefined) {
      const next = new Float32Array(capacity * this.dim);
      next.set(this.#buffer.subarray(0, used));
      this.#buffer = next;
    }
    const codes = new Int8Array(capacity * this.dim);
    codes.set(this.#codeBuffer.subarray(0, used));
    this.#codeBuffer = codes;
    if (this.#residuals !== undefined) {
      const residuals = new Int8Array(capacity * this.dim);
      residuals.set(this.#residuals.subarray(0, used));
      this.#residuals = residuals;
    }
  }
}
