/**
 * @module The f32 values of a ranked candidate list, read a batch at a time in rank order: a search that stops
 * once its error bound proves the rest cannot rank (vector-search.ts) reads only as far as it got. In RAM
 * each candidate is a view of the slots' block, taken when asked; on disk (`on_disk: true`) 16 at a time.
 */
import type { SlotOwner, VectorRows, VectorSlots } from './vector-slots.js';

/** Every candidate is a SQLite lookup of its own: small fixed batches read at most this many too many. */
const DISK_BATCH = 16;

/** Candidates 0…count-1 in rank order; `slotAt(i)` is candidate i's slot, or -1 when it is filtered out. */
export class CandidateRows<Owner extends SlotOwner> {
  #rows: VectorRows | undefined;
  #owners: Owner[] = [];
  /** Candidate i - #start's row in #rows, -1 when filtered out. */
  #rowOf = new Int32Array(0);
  #start = 0;
  #end = 0;
  /** In RAM, the slot of the candidate `offset` was last asked for. */
  #slot = -1;
  /** The f32 block in RAM, undefined on disk (the search is synchronous: no write replaces it meanwhile). */
  readonly #block: Float32Array | undefined;

  constructor(
    readonly slots: VectorSlots<Owner>,
    readonly count: number,
    readonly slotAt: (i: number) => number,
  ) {
    this.#block = slots.data();
  }

  /** Where candidate i's values start in `data`, -1 when it is filtered out or no longer has a vector. */
  offset(i: number): number {
    if (this.#block !== undefined) {
      // In RAM: no batch, so the filter is tested only on the candidates the search gets to, as before.
      this.#slot = this.slotAt(i);
      return this.#slot < 0 ? -1 : this.#slot * this.slots.dim;
    }
    if (i >= this.#end) this.#load(i);
    const row = this.#rowOf[i - this.#start] as number;
    return row < 0 ? -1 : ((this.#rows as VectorRows).offsets[row] as number);
  }

  /** The block `offset` points into (valid until the next `offset` call that loads a batch). */
  get data(): Float32Array {
    return this.#block ?? (this.#rows as VectorRows).data;
  }

  /** Candidate i's owner; call only after `offset(i)` returned an offset. */
  owner(i: number): Owner {
    if (this.#block !== undefined) return this.slots.owner(this.#slot);
    return this.#owners[this.#rowOf[i - this.#start] as number] as Owner;
  }

  #load(from: number): void {
    const end = Math.min(this.count, from + DISK_BATCH);
    const owners: Owner[] = [];
    const rowOf = new Int32Array(end - from);
    for (let i = from; i < end; i++) {
      const slot = this.slotAt(i);
      rowOf[i - from] = slot < 0 ? -1 : owners.push(this.slots.owner(slot)) - 1;
    }
    this.#rows = this.slots.rowsOf(owners);
    this.#owners = owners;
    this.#rowOf = rowOf;
    this.#start = from;
    this.#end = end;
  }
}
