/** @module Contract: a dense vector's `on_disk` (at create and by PATCH) keeps every answer as it is in RAM (Qdrant's VectorParams.on_disk). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { expectError, expectOk } from './expect-envelope.js';
import { upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const DIM = 8;

describe('vectors on disk', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  const random = seededRandom(31);
  const vector = () => Array.from({ length: DIM }, () => Math.fround(random() * 2 - 1));
  const points = Array.from({ length: 300 }, (_, id) => ({ id, vector: vector(), payload: { n: id } }));
  const queries = Array.from({ length: 5 }, vector);

  /** Searches (exact and default), a query by id, retrieve with vectors and a scroll page. */
  async function answers(name: string) {
    const out: unknown[] = [];
    const post = async (path: string, body: unknown) =>
      expectOk(await target.http('POST', `/collections/${name}/points${path}`, body));
    for (const query of queries) {
      out.push(await post('/search', { vector: query, limit: 5, with_vector: true }));
      out.push(await post('/query', { query, limit: 5, params: { exact: true } }));
    }
    out.push(await post('/query', { query: 4, limit: 5 }));
    out.push(await post('', { ids: [2, 9], with_vector: true }));
    out.push(await post('/scroll', { limit: 20, with_vector: true }));
    return out;
  }

  async function create(prefix: string, onDisk?: boolean) {
    const name = target.uniqueCollection(prefix);
    const vectors = { size: DIM, distance: 'Dot', ...(onDisk === undefined ? {} : { on_disk: onDisk }) };
    expectOk(await target.http('PUT', `/collections/${name}`, { vectors }));
    await upsertPoints(target, name, points);
    return name;
  }

  test('created on disk, a collection answers as one in RAM, and its info says on_disk', async () => {
    const ram = await create('ondisk_ram');
    const disk = await create('ondisk_disk', true);
    assert.deepEqual(await answers(disk), await answers(ram));
    const info = expectOk(await target.http('GET', `/collections/${disk}`));
    assert.equal(info.config.params.vectors.on_disk, true);
  });

  test('PATCH turns on_disk on and off on a live collection, answers unchanged', async () => {
    const name = await create('ondisk_patch');
    const expected = await answers(name);
    for (const onDisk of [true, false, true]) {
      expectOk(await target.http('PATCH', `/collections/${name}`, { vectors: { '': { on_disk: onDisk } } }));
      const info = expectOk(await target.http('GET', `/collections/${name}`));
      assert.equal(info.config.params.vectors.on_disk, onDisk);
      assert.deepEqual(await answers(name), expected, `on_disk ${onDisk}`);
    }
  });

  test('an on_disk that is not a boolean is a 400, at create and by PATCH', async () => {
    const name = target.uniqueCollection('ondisk_bad');
    expectError(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { size: DIM, distance: 'Dot', on_disk: 'yes' },
      }),
      400,
      /Format error in JSON body/,
    );
    const made = await create('ondisk_bad_patch');
    expectError(
      await target.http('PATCH', `/collections/${made}`, { vectors: { '': { on_disk: 'yes' } } }),
      400,
      /Format error in JSON body: invalid type: string "yes", expected a boolean/,
    );
  });
});
