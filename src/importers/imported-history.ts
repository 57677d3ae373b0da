/** @module What every importer hands the journal: /save messages, each with where it was read, and what it skipped. */
import { ValidationError } from '../errors/memory-pool-error.js';
import type { SaveMessage } from '../wire/save-request.js';

/** One message of an imported history, in the `/save` message shape with its original `ts`. */
export interface ImportedMessage {
  readonly message: SaveMessage & { readonly ts: number };
  /** Where it was read, for errors: `file:line`, or `file` and a JSON path for whole-document formats. */
  readonly origin: string;
}

/** A parsed history: the messages to journal, the ones left out by reason, and notes for the summary. */
export interface ImportedHistory {
  /** The `source` every message is saved under (chunks are tagged with it). */
  readonly source: string;
  readonly messages: readonly ImportedMessage[];
  /** Reason → how many messages were left out for it. */
  readonly skipped: Readonly<Record<string, number>>;
  readonly notes: readonly string[];
}

/** Counts the messages an importer leaves out, by reason. */
export class SkipCounter {
  readonly counts: Record<string, number> = {};

  add(reason: string): void {
    this.counts[reason] = (this.counts[reason] ?? 0) + 1;
  }
}

/** The error for bad input: names where (file and line), what is wrong, and how to fix it. */
export function refuseInput(origin: string, problem: string, fix: string): ValidationError {
  return new ValidationError(origin, `${origin}: ${problem}. ${fix}`);
}
