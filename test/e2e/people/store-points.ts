/**
 * @module Every point of every collection, read straight from the store's REST API (as another Qdrant client
 * sees them), and st-qdrant-memory's own write of a chunk: what the people scenario checks and plants.
 */
import { HashingEmbedder } from '../../../src/embedding/hashing/hashing-embedder.js';
import { TEST_DIMENSIONS } from '../../../src/config/test-support/test-bot.js';

export interface StorePoint {
  readonly collection: string;
  readonly id: string | number;
  readonly payload: Record<string, unknown>;
}

async function callStore<T>(storeUrl: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${storeUrl}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  const body = (await response.json()) as { result: T };
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body.result;
}

/** Every point of every collection in the store (chunks, parts, anything else), with its payload. */
export async function readAllPoints(storeUrl: string): Promise<StorePoint[]> {
  const { collections } = await callStore<{ collections: { name: string }[] }>(storeUrl, '/collections');
  const points: StorePoint[] = [];
  for (const { name } of collections) {
    let offset: unknown;
    do {
      const page = await callStore<{
        points: { id: string | number; payload: Record<string, unknown> }[];
        next_page_offset?: unknown;
      }>(storeUrl, `/collections/${name}/points/scroll`, {
        method: 'POST',
        body: JSON.stringify({
          limit: 500,
          with_payload: true,
          with_vector: false,
          ...(offset ? { offset } : {}),
        }),
      });
      points.push(...page.points.map((p) => ({ collection: name, id: p.id, payload: p.payload })));
      offset = page.next_page_offset ?? undefined;
    } while (offset !== undefined);
  }
  return points;
}

/** The points whose text holds `words`. */
export const pointsHolding = (points: readonly StorePoint[], words: string) =>
  points.filter((p) => String(p.payload.text ?? '').includes(words));

const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });

/** st-qdrant-memory's save of one chunk (its payload fields, no `source`), PUT into `collection`. */
export async function writeSillyTavernChunk(
  storeUrl: string,
  collection: string,
  chunk: { id: string; speakers: readonly string[]; lines: readonly string[]; timestamp: number },
): Promise<void> {
  const day = new Date(chunk.timestamp).toISOString().slice(0, 10);
  const text = `[${day}]\n${chunk.lines.join('\n')}`;
  const [vector] = await embedder.embed([text]);
  await callStore(storeUrl, `/collections/${collection}/points?wait=true`, {
    method: 'PUT',
    body: JSON.stringify({
      points: [
        {
          id: chunk.id,
          vector: Array.from(vector!),
          payload: {
            text,
            speakers: chunk.speakers.join(', '),
            messageCount: chunk.lines.length,
            timestamp: chunk.timestamp,
            messageIds: chunk.lines.map((_, i) => `Mythos_${chunk.timestamp + i}_${i}`).join(','),
            isChunk: true,
          },
        },
      ],
    }),
  });
}
