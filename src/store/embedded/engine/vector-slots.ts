/**
 * @module One collection's vectors in a single contiguous Float32Array, so exact search can hand the
 * whole block to usearch (or a tight JS loop) without gathering. Deleting swaps the last slot into the hole.
 */

/** Who owns a slot; the slot number is written back when a swap-remove moves the owner. */
export interface SlotOwner {
  slot: number;
}

const INITIAL_CAPACITY = 64;

/** Dense storage of equally sized f32 vectors with stable owners per slot. */
export class VectorSlots<Owner extends SlotOwner> {
  private buffer: Float32Array;
  private capacity = INITIAL_CAPACITY;
  private readonly owners: Owner[] = [];
  /** Largest squared norm ever stored; only grows, which keeps the search's error bound conservative. */
  maxNormSquared = 0;

  constructor(readonly dim: number) {
    this.buffer = new Float32Array(this.capacity * dim);
  }

  get count(): number {
    return this.owners.length;
  }

  /** The live vectors, slot after slot. A view starting at offset 0 (usearch ignores view offsets). */
  data(): Float32Array {
    return this.buffer.subarray(0, this.owners.length * this.dim);
  }

  /** The whole backing buffer, including unused capacity: for scans that index by slot. */
  raw(): Float32Array {
    return this.buffer;
  }

  owner(slot: number): Owner {
    return this.owners[slot] as Owner;
  }

  /** Appends a vector and sets `owner.slot`. */
  add(owner: Owner, vector: Float32Array): void {
    if (this.owners.length === this.capacity) this.grow();
    owner.slot = this.owners.length;
    this.owners.push(owner);
    this.write(owner.slot, vector);
  }

  /** Replaces the vector and owner of an existing slot. */
  replace(slot: number, owner: Owner, vector: Float32Array): void {
    owner.slot = slot;
    this.owners[slot] = owner;
    this.write(slot, vector);
  }

  /** Frees a slot by moving the last vector into it. */
  remove(slot: number): void {
    const last = this.owners.length - 1;
    const removed = this.owners[slot] as Owner;
    if (slot !== last) {
      const moved = this.owners[last] as Owner;
      this.buffer.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.owners[slot] = moved;
      moved.slot = slot;
    }
    this.owners.pop();
    removed.slot = -1;
  }

  /** A copy of one vector (views are unsafe to hand to usearch and to callers). */
  copy(slot: number): Float32Array {
    return this.buffer.slice(slot * this.dim, (slot + 1) * this.dim);
  }

  private write(slot: number, vector: Float32Array): void {
    this.buffer.set(vector, slot * this.dim);
    let squared = 0;
    for (let i = 0; i < vector.length; i++) squared += (vector[i] as number) * (vector[i] as number);
    if (squared > this.maxNormSquared) this.maxNormSquared = squared;
  }

  private grow(): void {
    this.capacity *= 2;
    const next = new Float32Array(this.capacity * this.dim);
    next.set(this.buffer);
    this.buffer = next;
  }
}
