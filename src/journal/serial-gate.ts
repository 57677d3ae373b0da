/** @module One serial queue: calls run one after another, so a transaction spanning awaits is never interleaved. */

/** Runs functions in call order, each after the previous one settled. */
export class SerialGate {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `work`; its result (or throw) is the returned promise's. */
  run<T>(work: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

/** Turns a synchronous object's methods into ones returning promises, each run through `gate`. */
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
