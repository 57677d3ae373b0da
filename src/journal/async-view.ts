/** @module An async view of a synchronous object: each method returns a promise, its call run by a given runner. */

/** Turns a synchronous object's methods into ones returning promises, each run through a runner. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** An Async view of `target`'s methods (own and inherited), each call run by `run`. */
export function toAsync<T extends object>(
  target: T,
  run: <R>(work: () => R) => Promise<Awaited<R>>,
): Async<T> {
  const view: Record<string, unknown> = {};
  for (
    let proto = Object.getPrototypeOf(target);
    proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = (target as Record<string, unknown>)[name];
      if (name === 'constructor' || name in view || typeof method !== 'function') continue;
      view[name] = (...args: unknown[]) =>
        run(() => (method as (...a: unknown[]) => unknown).apply(target, args));
    }
  }
  return view as Async<T>;
}
