/**
 * @module The point reads hybrid recall makes, sent to the embedded store in this process over its thread's port
 * (its QdrantServer.read) rather than REST: the same body, the same `result`, no HTTP or JSON between the threads.
 * A Qdrant over REST (real, or the embedded one of another process) is asked through the official client.
 */

/** Which read: `POST /collections/{name}/points` (`retrieve`), `.../points/search`, `.../query`, `.../count`, `.../scroll`. */
export type PostedReadKind = 'retrieve' | 'search' | 'query' | 'count' | 'scroll';

/** The embedded store's point reads without REST (its QdrantServer.read). */
export interface PostedReads {
  read(
    collection: string,
    request: { readonly kind: PostedReadKind; readonly body: unknown },
  ): Promise<unknown>;
}

/** One read: `kind` with `body` (the JSON body REST sends, with the client's defaults written out). */
export type ReadPoints = <T>(
  collection: string,
  kind: PostedReadKind,
  body: object,
  rest: () => Promise<T>,
) => Promise<T>;

/**
 * Reads the `result` over `posted` when given, else `rest` (the client call sending that body). Both fail alike
 * (`status`, message), and both give up after `timeoutMs` (the REST client's timeout) as a retryable failure.
 */
export function createPointReader(posted: PostedReads | undefined, timeoutMs: number): ReadPoints {
  return <T>(collection: string, kind: PostedReadKind, body: object, rest: () => Promise<T>) =>
    posted === undefined
      ? rest()
      : withTimeout(posted.read(collection, { kind, body }) as Promise<T>, timeoutMs, kind);
}

/**
 * A posted read that outlives the client's timeout fails as a REST call's would: an error without a status, which
 * the store's error mapping reports as `store_unavailable` (retryable). The read itself still ends on the thread.
 */
async function withTimeout<T>(work: Promise<T>, timeoutMs: number, kind: PostedReadKind): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the embedded store did not answer a ${kind} within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
