/**
 * @module The f32 values of a ranked candidate list, read a batch at a time in rank order: a search that stops
 * once its error bound proves the rest cannot rank (vector-search.ts) reads only as far as it got. In RAM a
 * batch is a view of the slots' block; on disk (`on_disk: true`) one read from SQLite per batch, growing.
 */
import type { SlotOwner, VectorRows, VectorSlots } from './vector-slots.js';

/** In RAM a batch costs only its bookkeeping: the first is 64, each next one twice as large. */
const FIRST_BATCH = 64;
const MAX_BATCH = 4096;
/** On disk every candidate is a SQLite lookup of its own: small fixed batches read at most this many too many. */
const DISK_BATCH = 16;

/** Candidates 0…count-1 in rank order; `slotAt(i)` is candidate i's slot, or -1 when it is filtered out. */
export class CandidateRows<Owner extends SlotOwner> {
  #rows: VectorRows | undefined;
  #owners: Owner[] = [];
  /** Candidate i - #start's row in #rows, -1 when filtered out. */
  #rowOf = new Int32Array(0);
  #start = 0;
  #end = 0;
  #batch = FIRST_BATCH;

  constructor(
    readonly slots: VectorSlots<Owner>,
    readonly count: number,
    readonly slotAt: (i: number) => number,
  ) {}

  /** Where candidate i's values start in `data`, -1 when it is filtered out or no longer has a vector. */
  offset(i: number): number {
    if (i >= this.#end) this.#load(i);
    const row = this.#rowOf[i - this.#start] as number;
    return row < 0 ? -1 : ((this.#rows as VectorRows).offsets[row] as number);
  }

  /** The block `offset` points into (valid until the next `offset` call that loads a batch). */
  get data(): Float32Array {
    return (this.#rows as VectorRows).data;
  }

  /** Candidate i's owner; call only after `offset(i)` returned an offset. */
  owner(i: number): Owner {
    return this.#owners[this.#rowOf[i - this.#start] as number] as Owner;
  }

  #load(from: number): void {
    const size = this.slots.onDisk ? DISK_BATCH : this.#batch;
    const end = Math.min(this.count, from + size);
    this.#batch = Math.min(MAX_BATCH, this.#batch * 2);
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
