import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { isQdrantError } from '../qdrant-error.js';
import {
  createTestCollection,
  filter,
  makeDataDir,
  openTestStore,
  plainJson,
  read,
} from './engine-test-kit.js';
import { openStoreEngine } from './store-engine.js';

const FIXTURE = fileURLToPath(new URL('./engine-child.fixture.ts', import.meta.url));

/** Runs the fixture in a child process; resolves with its first stdout line, or its exit when it has none. */
function runChild(mode: string, dataDir: string): Promise<{ line: string; child: ReturnType<typeof spawn> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode, dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ line: out.slice(0, newline), child });
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ line: out.trim() || `exit ${code}`, child }));
  });
}

describe('store engine', () => {
  test('lists, creates and deletes collections with Qdrant errors', () => {
    const { store } = openTestStore();
    createTestCollection(store, 'b', 2, 'Dot');
    createTestCollection(store, 'a', 2, 'Dot');
    assert.deepEqual(store.listCollections(), ['a', 'b']);
    assert.throws(() => createTestCollection(store, 'a', 2, 'Dot'), {
      status: 409,
      message: 'Wrong input: Collection `a` already exists!',
    });
    assert.equal(store.deleteCollection('a'), true);
    assert.equal(store.deleteCollection('a'), false);
    assert.equal(store.exists('a'), false);
    assert.throws(() => store.collection('a'), {
      status: 404,
      message: "Not found: Collection `a` doesn't exist!",
    });
  });

  test('prototype-named payload keys survive a reopen as plain data, in payloads without a prototype', () => {
    const dataDir = makeDataDir();
    const text = '{"__proto__":{"x":1},"constructor":{"prototype":2},"nested":{"__proto__":[3]}}';
    const first = openStoreEngine({ dataDir });
    createTestCollection(first, 'p', 2, 'Dot').upsert([{ id: 1, vector: [1, 0], payload: JSON.parse(text) }]);
    first.close();
    const second = openStoreEngine({ dataDir });
    try {
      const c = second.collection('p');
      const payload = c.retrieve([1], read(true))[0]?.payload;
      assert.equal(JSON.stringify(payload), text);
      assert.equal(Object.getPrototypeOf(payload), null);
      assert.equal(Object.getPrototypeOf(payload?.nested), null);
      assert.equal(c.count(filter({ must: [{ key: '__proto__.x', match: { value: 1 } }] })), 1);
      assert.equal(c.count(filter({ must: [{ key: 'nested.__proto__[]', match: { value: 3 } }] })), 1);
    } finally {
      second.close();
    }
  });

  test('keeps collections, points, indexes and operation ids across close and reopen', () => {
    const dataDir = makeDataDir();
    const first = openStoreEngine({ dataDir });
    const docs = createTestCollection(first, 'docs', 4, 'Cosine');
    docs.upsert([
      { id: 1, vector: [2, 6, 7, 8], payload: { tag: 'x' } },
      { id: 'C0FFEE00-0000-4000-8000-000000000001', vector: null, payload: { n: 5 } },
    ]);
    docs.createIndex('tag', { type: 'keyword' });
    createTestCollection(first, 'gone', 2, 'Dot');
    first.deleteCollection('gone');
    first.close();

    const second = openStoreEngine({ dataDir });
    try {
      assert.deepEqual(second.listCollections(), ['docs']);
      const reopened = second.collection('docs');
      const [point] = reopened.retrieve([1], read(true, true));
      assert.deepEqual(plainJson(point?.payload), { tag: 'x' });
      assert.equal(
        Object.getPrototypeOf(point?.payload),
        null,
        'payloads read back from SQLite have no prototype',
      );
      assert.ok(Math.abs((point?.vector?.[0] ?? 0) - 0.16169041) < 1e-6);
      assert.equal(reopened.count(), 2);
      assert.deepEqual((reopened.info().payload_schema as Record<string, unknown>).tag, {
        data_type: 'keyword',
        points: 1,
      });
      // Two operations (upsert, index) happened before: the next one is number 2.
      assert.equal(reopened.upsert([{ id: 2, vector: [1, 0, 0, 0], payload: {} }]).operationId, 2);
    } finally {
      second.close();
    }
  });

  test('an upsert that was answered survives the process being killed with SIGKILL', async () => {
    const dataDir = makeDataDir();
    const { line, child } = await runChild('write-then-hang', dataDir);
    assert.equal(line, 'written');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const store = openStoreEngine({ dataDir });
    try {
      const records = store.collection('crash').retrieve([1, 2], read(true));
      assert.deepEqual(plainJson(records), [
        { id: 1, payload: { n: 1 } },
        { id: 2, payload: { n: 2 } },
      ]);
    } finally {
      store.close();
    }
  });

  test('a second process on the same data dir is refused with a clear error', async () => {
    const { dataDir } = openTestStore();
    const { line } = await runChild('open', dataDir);
    assert.match(line, /in use by another memory-pool process/);
  });

  test('errors from the engine are QdrantErrors the HTTP layer can render', () => {
    const { store } = openTestStore();
    try {
      store.collection('nope');
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(isQdrantError(error));
    }
  });
});
