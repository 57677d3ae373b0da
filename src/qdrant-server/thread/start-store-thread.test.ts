import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { threadId } from 'node:worker_threads';
import { startQdrantServer } from '../http/server.js';
import { startStoreThread } from './start-store-thread.js';
import { recordFields, reviveFields } from './store-thread-messages.js';

const CUED = new URL('./test-support/cued-store-entry.ts', import.meta.url);
const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-thread-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function waitFor<T>(read: () => T | undefined): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the embedded store on its own thread', () => {
  test('serves the Qdrant API from another thread, with its key, and keeps what it stored after close', async () => {
    const dataDir = join(scratch(), 'qdrant');
    const store = await startStoreThread({ dataDir, port: 0, apiKey: 'k-1' });
    assert.notEqual(store.threadId, threadId, 'the store runs on a thread of its own');
    const headers = { 'api-key': 'k-1', 'content-type': 'application/json' };
    assert.equal((await fetch(`${store.url}/collections`)).status, 401, 'the API key is required as before');
    const created = await fetch(`${store.url}/collections/notes`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ vectors: { size: 2, distance: 'Cosine' } }),
    });
    assert.equal(created.status, 200);
    const upsert = await fetch(`${store.url}/collections/notes/points?wait=true`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ points: [{ id: 1, vector: [1, 0], payload: { text: 'tide' } }] }),
    });
    assert.equal(upsert.status, 200);
    await store.close();
    await store.close(); // twice is fine

    const again = await startStoreThread({ dataDir, port: 0, apiKey: 'k-1' });
    const point = await fetch(`${again.url}/collections/notes/points/1`, { headers });
    assert.deepEqual(((await point.json()) as { result: { payload: unknown } }).result.payload, {
      text: 'tide',
    });
    await again.close();
  });

  test('a posted upsert is committed as PUT /points is, and refused with the status and message that route answers', async () => {
    const dataDir = join(scratch(), 'qdrant');
    const store = await startStoreThread({ dataDir, port: 0 });
    const headers = { 'content-type': 'application/json' };
    await fetch(`${store.url}/collections/notes`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ vectors: { size: 2, distance: 'Cosine' } }),
    });
    const vectors = new Float32Array([0.6, 0.8, 1, 0]);
    await store.upsert('notes', {
      ids: [1, 2],
      vectors: [vectors.subarray(0, 2), vectors.subarray(2)],
      payloads: JSON.stringify([{ text: 'tide' }, { text: 'moon', gone: undefined }]),
    });
    assert.equal(vectors.length, 0, "the buffer went to the store's thread, uncopied");
    // A fresh batch each time: a posted batch's buffers are the thread's once sent.
    const wrongSize = () => ({ ids: [3], vectors: [new Float32Array(3)], payloads: '[{}]' });
    const refusedRest = await fetch(`${store.url}/collections/notes/points?wait=true`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ points: [{ id: 3, vector: [0, 0, 0], payload: {} }] }),
    });
    const restError = ((await refusedRest.json()) as { status: { error: string } }).status.error;
    const refused = await store.upsert('notes', wrongSize()).catch((e: unknown) => e);
    assert.equal((refused as { status?: number }).status, refusedRest.status);
    assert.equal((refused as Error).message, restError);
    const missing = await store.upsert('nowhere', wrongSize()).catch((e: unknown) => e);
    assert.equal((missing as { status?: number }).status, 404);
    await store.close();
    const closed = await store.upsert('notes', wrongSize()).catch((e: unknown) => e);
    assert.ok(closed instanceof Error && (closed as { status?: number }).status === undefined);

    const again = await startStoreThread({ dataDir, port: 0 });
    const read = await fetch(`${again.url}/collections/notes/points`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ids: [1, 2], with_payload: true, with_vector: true }),
    });
    const points = ((await read.json()) as { result: { id: number; payload: unknown; vector: number[] }[] })
      .result;
    assert.deepEqual(
      points.map((p) => [p.id, p.payload, p.vector.map((x) => Math.round(x * 10) / 10)]),
      [
        [1, { text: 'tide' }, [0.6, 0.8]],
        [2, { text: 'moon' }, [1, 0]],
      ],
    );
    await again.close();
  });

  test('upserts posted at once are applied in the order sent, and a close sent right after waits for them', async () => {
    const dataDir = join(scratch(), 'qdrant');
    const store = await startStoreThread({ dataDir, port: 0 });
    await fetch(`${store.url}/collections/notes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vectors: { size: 2, distance: 'Dot' } }),
    });
    const version = (n: number) => ({
      ids: [1, 10 + n],
      vectors: [new Float32Array([n, 0]), new Float32Array([0, n])],
      payloads: JSON.stringify([{ n }, { n }]),
    });
    // Not awaited one by one, as a writer posts a batch's slices: the last posted is what id 1 holds.
    const sent = [1, 2, 3].map((n) => store.upsert('notes', version(n)));
    const closing = store.close();
    await Promise.all(sent);
    await closing;

    const again = await startStoreThread({ dataDir, port: 0 });
    const read = await fetch(`${again.url}/collections/notes/points/scroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 10, with_payload: true, with_vector: true }),
    });
    const points = (
      (await read.json()) as { result: { points: { id: number; payload: unknown; vector: number[] }[] } }
    ).result.points;
    assert.deepEqual(
      points.map((p) => [p.id, p.payload, p.vector]),
      [
        [1, { n: 3 }, [3, 0]],
        [11, { n: 1 }, [0, 1]],
        [12, { n: 2 }, [0, 2]],
        [13, { n: 3 }, [0, 3]],
      ],
    );
    await again.close();
  });

  test('a posted upsert cancelled before the thread begins it is dropped and rejects with an AbortError', async (t) => {
    const dataDir = join(scratch(), 'qdrant');
    const store = await startStoreThread({ dataDir, port: 0, entry: CUED });
    await fetch(`${store.url}/collections/notes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vectors: { size: 2, distance: 'Dot' } }),
    });
    const one = (id: number) => ({ ids: [id], vectors: [new Float32Array([id, 0])], payloads: '[{}]' });
    t.after(() => store.close());
    // Held, as a thread busy with a big slice is: what is posted meanwhile waits in its queue.
    writeFileSync(join(dataDir, 'block'), '');
    await waitFor(() => (existsSync(join(dataDir, 'blocked')) ? true : undefined));
    const cancel = new AbortController();
    const kept = store.upsert('notes', one(1));
    const dropped = Promise.all(
      [2, 3].map((id) =>
        assert.rejects(store.upsert('notes', one(id), cancel.signal), { name: 'AbortError' }),
      ),
    );
    cancel.abort();
    writeFileSync(join(dataDir, 'release'), '');
    await Promise.all([kept, dropped]);
    await assert.rejects(store.upsert('notes', one(4), cancel.signal), { name: 'AbortError' });
    const read = await fetch(`${store.url}/collections/notes/points/scroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 10 }),
    });
    const ids = ((await read.json()) as { result: { points: { id: number }[] } }).result.points.map(
      (p) => p.id,
    );
    assert.deepEqual(ids, [1]);
  });

  test('a port in use and a data folder that is a file fail as startQdrantServer fails, code and message', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const onThread = await startStoreThread({ dataDir: join(scratch(), 'a'), port }).catch(
        (e: unknown) => e,
      );
      const inProcess = await startQdrantServer({ dataDir: join(scratch(), 'b'), port }).catch(
        (e: unknown) => e,
      );
      assert.equal((onThread as NodeJS.ErrnoException).code, 'EADDRINUSE');
      assert.equal((onThread as Error).message, (inProcess as Error).message);
    } finally {
      taken.close();
    }
    const file = join(scratch(), 'not-a-folder');
    writeFileSync(file, 'x');
    const onThread = await startStoreThread({ dataDir: file, port: 0 }).catch((e: unknown) => e);
    const inProcess = await startQdrantServer({ dataDir: file, port: 0 }).catch((e: unknown) => e);
    assert.ok(onThread instanceof Error);
    assert.equal(onThread.message, (inProcess as Error).message);
  });

  test('a crash of the thread while serving is reported once, with its cause, and close() still resolves', async () => {
    const dataDir = join(scratch(), 'qdrant');
    const crashes: Error[] = [];
    const store = await startStoreThread({ dataDir, port: 0, entry: CUED, onCrash: (e) => crashes.push(e) });
    writeFileSync(join(dataDir, 'crash'), '');
    const crash = await waitFor(() => crashes[0]);
    assert.match(crash.message, /crashed on cue/);
    await assert.rejects(fetch(`${store.url}/collections`), 'nothing listens any more');
    await store.close();
    assert.equal(crashes.length, 1);
  });

  test("log fields cross the thread with their errors' message and code", () => {
    const error = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    const posted = structuredClone(recordFields({ err: error, path: '/collections/a' }));
    const fields = reviveFields(posted);
    assert.equal(fields.path, '/collections/a');
    assert.ok(fields.err instanceof Error);
    assert.equal(fields.err.message, 'disk full');
    assert.equal((fields.err as NodeJS.ErrnoException).code, 'ENOSPC');
  });
});
