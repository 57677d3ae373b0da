/** @module Whether two embedding settings (or embedders) name one model, and how a model is named in messages. */

/** What identifies a model: its name and, when known, its vector size. */
export interface ModelIdentity {
  readonly model: string;
  readonly dimensions: number | undefined;
}

/** Same model and, when both are known, the same vector size (one model may be configured with several). */
export function sameModel(a: ModelIdentity, b: ModelIdentity): boolean {
  return (
    a.model === b.model &&
    (a.dimensions === undefined || b.dimensions === undefined || a.dimensions === b.dimensions)
  );
}

/** `model` or `model (N-d)`, as messages and logs name it. */
export function describeModel(m: ModelIdentity): string {
  return m.dimensions === undefined ? m.model : `${m.model} (${m.dimensions}-d)`;
}
