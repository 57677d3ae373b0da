/**
 * @module st-qdrant-memory's save loop when it indexes a chat, as its source does it (shared docs,
 * st-qdrant-memory.md): chunks cut before a message that would pass 1,500 characters or after one that
 * brings a chunk to 1,200 with 3+ messages; per chunk, one by one: a scroll for any of its message ids
 * (skip if found), one embedding call, a duplicate search (limit 1, threshold 0.92), one upsert.
 */
import { randomUUID } from 'node:crypto';

/** One chat message as the loop reads it. */
export interface StMessage {
  readonly id: string;
  readonly speaker: string;
  readonly text: string;
  readonly ts: number;
}

/** Where the loop talks to: a Qdrant API and an OpenAI-compatible `/embeddings` URL. */
export interface StEndpoints {
  readonly storeUrl: string;
  readonly embeddingsUrl: string;
}

async function call(url: string, method: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

function cutChunks(messages: readonly StMessage[]): StMessage[][] {
  const chunks: StMessage[][] = [];
  let current: StMessage[] = [];
  let size = 0;
  for (const message of messages) {
    const length = message.text.length + message.speaker.length + 4;
    if (current.length > 0 && size + length > 1_500) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(message);
    size += length;
    if (size >= 1_200 && current.length >= 3) {
      chunks.push(current);
      current = [];
      size = 0;
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Saves `messages` into a new `collection` the way the extension indexes a chat; resolves with seconds taken. */
export async function runStLoop(
  endpoints: StEndpoints,
  collection: string,
  messages: readonly StMessage[],
): Promise<number> {
  const base = `${endpoints.storeUrl}/collections/${collection}`;
  const started = performance.now();
  let created = false;
  for (const chunk of cutChunks(messages)) {
    const ids = chunk.map((m) => m.id);
    if (created) {
      const found = (await call(`${base}/points/scroll`, 'POST', {
        filter: { should: ids.map((id) => ({ key: 'messageIds', match: { text: id } })) },
        limit: 1,
        with_payload: false,
      })) as { result: { points: unknown[] } };
      if (found.result.points.length > 0) continue;
    }
    const text = `[${new Date(chunk[0]!.ts).toISOString().slice(0, 10)}]\n${chunk.map((m) => `${m.speaker}: ${m.text}`).join('\n')}`;
    const embedded = (await call(endpoints.embeddingsUrl, 'POST', {
      model: 'text-embedding-3-large',
      input: [text],
    })) as {
      data: { embedding: number[] }[];
    };
    const vector = embedded.data[0]!.embedding;
    if (!created) {
      await call(base, 'PUT', { vectors: { size: vector.length, distance: 'Cosine' } });
      created = true;
    } else {
      const duplicate = (await call(`${base}/points/search`, 'POST', {
        vector,
        limit: 1,
        score_threshold: 0.92,
        with_payload: true,
      })) as { result: unknown[] };
      if (duplicate.result.length > 0) continue;
    }
    const payload = {
      text,
      speakers: [...new Set(chunk.map((m) => m.speaker))].join(', '),
      messageCount: chunk.length,
      timestamp: chunk[0]!.ts,
      messageIds: ids.join(','),
      isChunk: true,
    };
    await call(`${base}/points`, 'PUT', { points: [{ id: randomUUID(), vector, payload }] });
  }
  return (performance.now() - started) / 1000;
}
