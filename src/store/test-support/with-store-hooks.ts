/**
 * @module Failure injection for any store a test holds (the in-memory fake or the Qdrant adapter): a hook
 * runs before every call and may throw (the store is down) or wait (a forget races the write).
 */

/** One call the store is about to run. */
export interface StoreCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

export interface StoreHooks {
  /** Runs before each call; throwing fails the call with that error, and the store is not reached. */
  beforeCall?(call: StoreCall): void | Promise<void>;
}

/** The same store, every method passing through `hooks` first. */
export function withStoreHooks<S extends object>(store: S, hooks: StoreHooks): S {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return async (...args: unknown[]) => {
        await hooks.beforeCall?.({ method: property, args });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
