import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { inheritsNothing } from '../filter/index.js';
import { isQdrantError } from '../qdrant-error.js';
import {
  createTestCollection,
  filter,
  makeDataDir,
  openTestStore,
  plainJson,
  read,
} from './engine-test-kit.js';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from './sqlite-persistence.js';
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

/** The schema of data dirs written before named and sparse vectors existed (no `vectors` column). */
const OLD_SCHEMA = `
CREATE TABLE collections (name TEXT PRIMARY KEY, spec TEXT NOT NULL, indexes TEXT NOT NULL, operations INTEGER NOT NULL);
CREATE TABLE points (collection TEXT NOT NULL, id_key TEXT NOT NULL, vector BLOB, payload TEXT NOT NULL,
  version INTEGER NOT NULL, PRIMARY KEY (collection, id_key)) WITHOUT ROWID;
`;

describe('store engine', () => {
  test('lists, creates and deletes collections with Qdrant errors', async () => {
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

  test('prototype-named payload keys survive a reopen as plain data, in payloads that inherit nothing', async () => {
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
      assert.ok(payload !== undefined && inheritsNothing(payload));
      assert.ok(inheritsNothing(payload.nested as object));
      assert.equal('hasOwnProperty' in payload, false);
      assert.equal(c.count(filter({ must: [{ key: '__proto__.x', match: { value: 1 } }] })), 1);
      assert.equal(c.count(filter({ must: [{ key: 'nested.__proto__[]', match: { value: 3 } }] })), 1);
    } finally {
      second.close();
    }
  });

  test('keeps collections, points, indexes and operation ids across close and reopen', async () => {
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
      assert.ok(
        point?.payload !== undefined && inheritsNothing(point.payload),
        'payloads read back from SQLite inherit nothing',
      );
      assert.ok(Math.abs(((point?.vector as number[] | undefined)?.[0] ?? 0) - 0.16169041) < 1e-6);
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

  test('errors from the engine are QdrantErrors the HTTP layer can render', async () => {
    const { store } = openTestStore();
    try {
      store.collection('nope');
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(isQdrantError(error));
    }
  });

  test('keeps named dense and sparse vectors on the same point across close and reopen', async () => {
    const dataDir = makeDataDir();
    const first = openStoreEngine({ dataDir });
    first.createCollection('h', {
      vectors: null,
      namedVectors: { dense: { size: 2, distance: 'Cosine', extras: {} } },
      sparseVectors: { lexical: { modifier: 'idf' } },
      settings: {},
    });
    first.collection('h').upsert([
      { id: 1, vector: { dense: [3, 4], lexical: { indices: [9, 2], values: [0.25, 1.5] } }, payload: {} },
      { id: 2, vector: { lexical: { indices: [2], values: [1] } }, payload: {} },
    ]);
    const before = first.collection('h').info();
    first.close();

    const second = openStoreEngine({ dataDir });
    try {
      const h = second.collection('h');
      assert.deepEqual(h.info(), before);
      const [point] = h.retrieve([1], read(false, true));
      assert.deepEqual(point?.vector, {
        dense: [Math.fround(0.6), Math.fround(0.8)],
        lexical: { indices: [2, 9], values: [1.5, 0.25] },
      });
      const hits = await h.query({
        ...read(),
        query: { kind: 'nearest', vector: { indices: [2], values: [1] } },
        using: 'lexical',
        prefetch: [],
        limit: 10,
        offset: 0,
      });
      // Both points have dimension 2 after the reopen: N = 2, df = 2, so the index was rebuilt.
      assert.deepEqual(
        hits.map((hit) => hit.id),
        [1, 2],
      );
      assert.ok(Math.abs((hits[0]?.score ?? 0) - 1.5 * Math.log(0.5 / 2.5 + 1)) < 1e-6);
    } finally {
      second.close();
    }
  });

  test('opens a data dir written before named vectors existed, and keeps it working', async () => {
    const dataDir = makeDataDir();
    const old = new Database(join(dataDir, DATABASE_FILE));
    old.exec(OLD_SCHEMA);
    old
      .prepare('INSERT INTO collections VALUES (?, ?, ?, ?)')
      .run(
        'legacy',
        JSON.stringify({ vectors: { size: 2, distance: 'Dot', extras: {} }, settings: {} }),
        '{}',
        1,
      );
    old
      .prepare('INSERT INTO points VALUES (?, ?, ?, ?, ?)')
      .run('legacy', 'n:1', Buffer.from(Float32Array.from([1, 2]).buffer), '{"a":1}', 0);
    old.close();

    const store = openStoreEngine({ dataDir });
    try {
      const legacy = store.collection('legacy');
      assert.deepEqual(plainJson(legacy.retrieve([1], read(true, true))), [
        { id: 1, payload: { a: 1 }, vector: [1, 2] },
      ]);
      assert.equal(legacy.upsert([{ id: 2, vector: [3, 0], payload: {} }]).operationId, 1);
      const hits = await legacy.search({ ...read(), vector: [1, 0], limit: 2, offset: 0 });
      assert.deepEqual(
        hits.map((hit) => [hit.id, hit.score]),
        [
          [2, 3],
          [1, 1],
        ],
      );
      assert.deepEqual((legacy.info().config as { params: { vectors: unknown } }).params.vectors, {
        size: 2,
        distance: 'Dot',
      });
    } finally {
      store.close();
    }
    const reopened = openStoreEngine({ dataDir });
    try {
      assert.equal(reopened.collection('legacy').count(), 2);
      assert.deepEqual(reopened.listAliases(), []);
    } finally {
      reopened.close();
    }
  });

  test('an alias batch that fails part-way changes nothing; aliases survive a reopen', async () => {
    const dataDir = makeDataDir();
    const first = openStoreEngine({ dataDir });
    createTestCollection(first, 'a', 2, 'Dot');
    createTestCollection(first, 'b', 2, 'Dot');
    first.updateAliases([{ kind: 'create', alias: 'live', collection: 'a' }]);
    assert.throws(
      () =>
        first.updateAliases([
          { kind: 'delete', alias: 'live' },
          { kind: 'create', alias: 'live', collection: 'b' },
          { kind: 'rename', from: 'nope', to: 'x' },
        ]),
      { status: 404, message: 'Not found: Alias nope does not exists!' },
    );
    assert.deepEqual(first.listAliases(), [{ alias_name: 'live', collection_name: 'a' }]);
    first.updateAliases([
      { kind: 'delete', alias: 'live' },
      { kind: 'create', alias: 'live', collection: 'b' },
      { kind: 'create', alias: 'old', collection: 'a' },
    ]);
    first.close();

    const second = openStoreEngine({ dataDir });
    try {
      assert.deepEqual(second.listAliases(), [
        { alias_name: 'old', collection_name: 'a' },
        { alias_name: 'live', collection_name: 'b' },
      ]);
      assert.equal(second.collection('live').name, 'b');
      assert.deepEqual(second.collectionAliases('a'), [{ alias_name: 'old', collection_name: 'a' }]);
      assert.equal(second.deleteCollection('old'), false, 'an alias is not deleted as a collection');
      assert.equal(second.deleteCollection('a'), true);
      assert.deepEqual(second.listAliases(), [{ alias_name: 'live', collection_name: 'b' }]);
    } finally {
      second.close();
    }
  });
});
