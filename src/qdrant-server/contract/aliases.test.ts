/**
 * @module Contract: collection aliases: batched create, delete and rename, listing, and collection routes that
 * accept an alias in place of the collection name (qdrant-hybrid.md §4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectClientError, expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

interface Alias {
  alias_name: string;
  collection_name: string;
}

describe('aliases', () => {
  let target: ContractTarget;
  let first: string;
  let second: string;
  before(async () => {
    target = await openTarget();
    first = await seedCollection(target, 'al_a', [{ id: 1, vector: [1, 0, 0, 0], payload: { from: 'a' } }]);
    second = await seedCollection(target, 'al_b', [{ id: 2, vector: [0, 1, 0, 0], payload: { from: 'b' } }]);
  });
  after(() => target.close());

  const change = (actions: unknown[]) => target.http('POST', '/collections/aliases', { actions });
  /** Our aliases only: a real Qdrant may hold other runs' aliases. */
  const listed = async (names: string[]): Promise<Alias[]> =>
    (expectOk(await target.http('GET', '/aliases')).aliases as Alias[])
      .filter((alias) => names.includes(alias.alias_name))
      .sort((a, b) => (a.alias_name < b.alias_name ? -1 : 1));

  test('create, rename and delete aliases; both listings show them (§4)', async () => {
    const alias = target.uniqueCollection('al_x');
    const renamed = target.uniqueCollection('al_y');
    assert.equal(
      expectOk(await change([{ create_alias: { collection_name: first, alias_name: alias } }])),
      true,
    );
    assert.deepEqual(await listed([alias]), [{ alias_name: alias, collection_name: first }]);
    const ofFirst = expectOk(await target.http('GET', `/collections/${first}/aliases`)).aliases;
    assert.deepEqual(ofFirst, [{ alias_name: alias, collection_name: first }]);
    expectOk(await change([{ rename_alias: { old_alias_name: alias, new_alias_name: renamed } }]));
    assert.deepEqual(await listed([alias, renamed]), [{ alias_name: renamed, collection_name: first }]);
    expectOk(await change([{ delete_alias: { alias_name: renamed } }]));
    assert.deepEqual(await listed([alias, renamed]), []);
    const viaClient = await target.client.getCollectionAliases(first);
    assert.deepEqual(viaClient.aliases, []);
  });

  test('collection routes accept an alias: info, exists, upsert, query, scroll, count (§4)', async () => {
    const alias = target.uniqueCollection('al_routes');
    expectOk(await change([{ create_alias: { collection_name: first, alias_name: alias } }]));
    const info = expectOk(await target.http('GET', `/collections/${alias}`));
    assert.deepEqual(info.config.params.vectors, { size: 4, distance: 'Cosine' });
    assert.deepEqual(expectOk(await target.http('GET', `/collections/${alias}/exists`)), { exists: true });
    await target.client.upsert(alias, {
      wait: true,
      points: [{ id: 3, vector: [1, 1, 0, 0], payload: { via: 'alias' } }],
    });
    const hits = await target.client.query(alias, { query: [1, 0, 0, 0], limit: 5, with_payload: true });
    assert.deepEqual(hits.points.map((p) => p.id).sort(), [1, 3]);
    const [point] = await target.client.retrieve(first, { ids: [3], with_payload: true });
    assert.deepEqual(point?.payload, { via: 'alias' });
    assert.equal((await target.client.count(alias, { exact: true })).count, 2);
    expectOk(await change([{ delete_alias: { alias_name: alias } }]));
    expectError(
      await target.http('POST', `/collections/${alias}/points/count`, {}),
      404,
      `Not found: Collection \`${alias}\` doesn't exist!`,
    );
  });

  test('one batch switches an alias from one collection to another (§4)', async () => {
    const alias = target.uniqueCollection('al_switch');
    expectOk(await change([{ create_alias: { collection_name: first, alias_name: alias } }]));
    expectOk(
      await change([
        { delete_alias: { alias_name: alias } },
        { create_alias: { collection_name: second, alias_name: alias } },
      ]),
    );
    const hits = await target.client.query(alias, { query: [0, 1, 0, 0], limit: 1, with_payload: true });
    assert.deepEqual(hits.points[0]?.payload, { from: 'b' });
    expectOk(await change([{ delete_alias: { alias_name: alias } }]));
  });

  test('errors: missing collection 404, alias named as a collection 409, missing alias to rename 404 (§4)', async () => {
    const missing = target.uniqueCollection('al_missing');
    expectError(
      await change([
        { create_alias: { collection_name: missing, alias_name: target.uniqueCollection('al_e') } },
      ]),
      404,
      `Not found: Collection \`${missing}\` doesn't exist!`,
    );
    expectError(
      await change([{ create_alias: { collection_name: first, alias_name: second } }]),
      409,
      `Wrong input: Collection \`${second}\` already exists!`,
    );
    const ghost = target.uniqueCollection('al_ghost');
    expectError(
      await change([{ rename_alias: { old_alias_name: ghost, new_alias_name: `${ghost}_2` } }]),
      404,
      `Not found: Alias ${ghost} does not exists!`,
    );
    // Deleting an alias that does not exist is not an error.
    assert.equal(expectOk(await change([{ delete_alias: { alias_name: ghost } }])), true);
    expectError(await change([{ make_alias: {} }]), 400, /^Format error in JSON body: /);
  });

  test('a collection cannot take an alias name; deleting a collection deletes its aliases (§4)', async () => {
    const doomed = await seedCollection(target, 'al_doomed', []);
    const alias = target.uniqueCollection('al_of_doomed');
    expectOk(await change([{ create_alias: { collection_name: doomed, alias_name: alias } }]));
    await expectClientError(
      target.client.createCollection(alias, { vectors: { size: 4, distance: 'Dot' } }),
      400,
      `Wrong input: Can't create collection with name ${alias}. Alias with the same name already exists`,
    );
    assert.equal(expectOk(await target.http('DELETE', `/collections/${doomed}`)), true);
    assert.deepEqual(await listed([alias]), []);
    assert.deepEqual(expectOk(await target.http('GET', `/collections/${alias}/exists`)), { exists: false });
  });
});
