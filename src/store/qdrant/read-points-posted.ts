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

/**
 * The `result` of read `kind` with `body` (the JSON body REST sends, with the client's defaults written out):
 * over `posted` when given, else `rest` (the client call sending that body). Both fail alike (`status`, message).
 */
export function readPoints<T>(
  posted: PostedReads | undefined,
  collection: string,
  kind: PostedReadKind,
  body: object,
  rest: () => Promise<T>,
): Promise<T> {
  return posted === undefined ? rest() : (posted.read(collection, { kind, body }) as Promise<T>);
}
