/**
 * @module One collection's vectors in a single contiguous Float32Array, so exact search can hand the
 * whole block to usearch (or a tight JS loop) without gathering. Deleting swaps the last slot into the hole.
 * Beside it sits an int8 copy (one global scale) that a search scans first: a quarter of the memory traffic,
 * which is what bounds an exact scan here. The f32 values stay the truth; see vector-search.ts.
 */

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
  #buffer: Float32Array;
  #codeBuffer: Int8Array;
  #capacity = INITIAL_CAPACITY;
  /** Largest |component| the codes were scaled for; codes = round(x · scale). */
  #quantizedFor = 0;
  /** Multiplier from f32 values to int8 codes. */
  scale = 1;
  /** Largest sum of |code| over one stored vector since the last re-quantizing; only grows. */
  maxCodeL1 = 0;
  readonly #owners: Owner[] = [];
  /** Largest squared norm ever stored; only grows, which keeps the search's error bound conservative. */
  maxNormSquared = 0;
  observer: SlotObserver<Owner> | undefined;

  constructor(readonly dim: number) {
    this.#buffer = new Float32Array(this.#capacity * dim);
    this.#codeBuffer = new Int8Array(this.#capacity * dim);
  }

  /** The int8 codes of the live vectors, slot after slot, a view at offset 0. */
  codes(): Int8Array {
    return this.#codeBuffer.subarray(0, this.#owners.length * this.dim);
  }

  get count(): number {
    return this.#owners.length;
  }

  /** The live vectors, slot after slot. A view starting at offset 0 (usearch ignores view offsets). */
  data(): Float32Array {
    return this.#buffer.subarray(0, this.#owners.length * this.dim);
  }

  /** The whole backing buffer, including unused capacity: for scans that index by slot. */
  raw(): Float32Array {
    return this.#buffer;
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
      this.#buffer.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.#codeBuffer.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.#owners[slot] = moved;
      moved.slot = slot;
    }
    this.#owners.pop();
    removed.slot = -1;
    this.observer?.removed(removed);
  }

  /** A copy of one vector (views are unsafe to hand to usearch and to callers). */
  copy(slot: number): Float32Array {
    return this.#buffer.slice(slot * this.dim, (slot + 1) * this.dim);
  }

  #write(slot: number, vector: Float32Array): void {
    this.#buffer.set(vector, slot * this.dim);
    let squared = 0;
    let maxAbs = 0;
    for (let i = 0; i < vector.length; i++) {
      const x = vector[i] as number;
      squared += x * x;
      if (Math.abs(x) > maxAbs) maxAbs = Math.abs(x);
    }
    if (squared > this.maxNormSquared) this.maxNormSquared = squared;
    if (maxAbs > this.#quantizedFor * QUANT_HEADROOM) this.#requantize(maxAbs);
    else this.#encode(slot);
  }

  #encode(slot: number): void {
    const start = slot * this.dim;
    let l1 = 0;
    for (let i = start; i < start + this.dim; i++) {
      const code = Math.round((this.#buffer[i] as number) * this.scale);
      this.#codeBuffer[i] = code;
      l1 += Math.abs(code);
    }
    if (l1 > this.maxCodeL1) this.maxCodeL1 = l1;
  }

  #requantize(maxAbs: number): void {
    this.#quantizedFor = maxAbs;
    this.scale = 127 / (maxAbs * QUANT_HEADROOM);
    this.maxCodeL1 = 0;
    for (let slot = 0; slot < this.#owners.length; slot++) this.#encode(slot);
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
    const next = new Float32Array(capacity * this.dim);
    next.set(this.#buffer.subarray(0, used));
    this.#buffer = next;
    const codes = new Int8Array(capacity * this.dim);
    codes.set(this.#codeBuffer.subarray(0, used));
    this.#codeBuffer = codes;
  }
}
