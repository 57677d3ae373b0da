/** @module The wire contract of `GET /health` and `GET /ready`, shared by the server and the client. */

/** `GET /health`: the process is up. */
export interface HealthResponse {
  readonly status: 'ok';
}

/** One dependency's state in `GET /ready`. */
export interface ReadinessCheck {
  readonly ok: boolean;
  readonly error?: string;
}

/** What is left of the rename of stored chunks after a link change (docs/people.md): counts only, no names. */
export interface RenamingStatus {
  /** Chunks queued to be rewritten under the names links give now, not rewritten yet. */
  readonly chunksLeft: number;
  /** Accounts whose pass has not queued their chunks yet (it runs about a second after the change). */
  readonly accountsWaiting: number;
}

/** `GET /ready`: whether the store and embedder answer and the journal can be written, one check each (503 when one fails). */
export interface ReadyResponse {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, ReadinessCheck>>;
  /**
   * Only while a rename pass runs: what is left, over every bot, and by bot for an admin key. It never makes the
   * service unready (recall and saves work meanwhile, old chunks read their old names until rewritten).
   */
  readonly renaming?: RenamingStatus & { readonly bots?: Readonly<Record<string, RenamingStatus>> };
}
