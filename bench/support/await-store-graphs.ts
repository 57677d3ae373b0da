/**
 * @module Waits until the embedded store's approximate indexes hold every vector (issue 36): after a start the
 * store rebuilds them in the background and searches exactly meanwhile, which is not the steady state a
 * latency figure should show. A tree without the indexes (indexed_vectors_count stays 0) is not waited for.
 */

interface CollectionInfo {
  readonly points_count: number;
  readonly indexed_vectors_count: number;
}

/** Seconds spent waiting; polls every collection's info once a second. */
export async function awaitStoreGraphs(storeUrl: string, giveUpIfIdleMs = 10_000): Promise<number> {
  const started = performance.now();
  const list = (await (await fetch(`${storeUrl}/collections`)).json()) as {
    result: { collections: { name: string }[] };
  };
  for (const { name } of list.result.collections) {
    let lastIndexed = -1;
    let lastChange = performance.now();
    for (;;) {
      const info = (
        (await (await fetch(`${storeUrl}/collections/${name}`)).json()) as { result: CollectionInfo }
      ).result;
      // Every point of the bench's collections has one dense vector, so the graph is whole at points_count.
      if (info.indexed_vectors_count >= info.points_count) break;
      if (info.indexed_vectors_count !== lastIndexed)
        [lastIndexed, lastChange] = [info.indexed_vectors_count, performance.now()];
      else if (performance.now() - lastChange > giveUpIfIdleMs) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  return (performance.now() - started) / 1000;
}
