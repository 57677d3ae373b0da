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

/** `GET /ready`: whether the store and embedder answer and the journal can be written, one check each (503 when one fails). */
export interface ReadyResponse {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, ReadinessCheck>>;
}
