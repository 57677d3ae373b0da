/** @module Contract: payload indexes, payload_schema counts and text-index token semantics (qdrant-subset.md §1, §4.4). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const v = [1, 0, 0, 0];

describe('indexes', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  const createIndex = async (name: string, body: object) =>
    expectOk(await target.http('PUT', `/collections/${name}/index?wait=true`, body));
  const schemaOf = async (name: string) =>
    expectOk(await target.http('GET', `/collections/${name}`)).payload_schema;
  async function textIds(name: string, key: string, text: string): Promise<unknown[]> {
    const filter = { must: [{ key, match: { text } }] };
    const page = expectOk(
      await target.http('POST', `/collections/${name}/points/scroll`, {
        filter,
        limit: 100,
        with_payload: false,
      }),
    );
    return page.points.map((p: { id: unknown }) => p.id);
  }

  test('payload_schema reports each index with the count of points holding a value of its type (§1)', async () => {
    const name = await seedCollection(target, 'ix_schema', [
      { id: 1, vector: v, payload: { n: 1, kw: 'a', flag: true } },
      { id: 2, vector: v, payload: { n: [1, 2], kw: ['a', 'b'], flag: [false, true] } },
      { id: 3, vector: v, payload: { n: 'x', kw: 5, flag: 'true' } },
      { id: 4, vector: v },
    ]);
    const result = await createIndex(name, { field_name: 'n', field_schema: 'integer' });
    assert.equal(result.status, 'completed');
    assert.equal(typeof result.operation_id, 'number');
    await createIndex(name, { field_name: 'kw', field_type: 'keyword' });
    await target.client.createPayloadIndex(name, { field_name: 'flag', field_schema: 'bool', wait: true });
    assert.deepEqual(await schemaOf(name), {
      n: { data_type: 'integer', points: 2 },
      kw: { data_type: 'keyword', points: 2 },
      flag: { data_type: 'bool', points: 2 },
    });
    await createIndex(name, { field_name: 'n', field_schema: 'integer' });
    assert.deepEqual((await schemaOf(name)).n, { data_type: 'integer', points: 2 });
    await target.client.upsert(name, { points: [{ id: 5, vector: v, payload: { n: 9 } }] });
    assert.deepEqual((await schemaOf(name)).n, { data_type: 'integer', points: 3 });
  });

  test('a text index echoes its params with the tokenizer written out (§1)', async () => {
    const name = await seedCollection(target, 'ix_text_schema', [
      { id: 1, vector: v, payload: { body: 'hello world' } },
    ]);
    await createIndex(name, { field_name: 'body', field_schema: { type: 'text' } });
    assert.deepEqual((await schemaOf(name)).body, {
      data_type: 'text',
      params: { type: 'text', tokenizer: 'word' },
      points: 1,
    });
  });

  test('an index without field_schema is 400 with the exact text (§1)', async () => {
    const name = await seedCollection(target, 'ix_noschema', [{ id: 1, vector: v }]);
    expectError(
      await target.http('PUT', `/collections/${name}/index?wait=true`, { field_name: 'x' }),
      400,
      "Bad request: Can't auto-detect field type, please specify `field_schema` in the request",
    );
  });

  test('deleting an index removes it from payload_schema (§1)', async () => {
    const name = await seedCollection(target, 'ix_delete', [{ id: 1, vector: v, payload: { kw: 'a' } }]);
    await createIndex(name, { field_name: 'kw', field_schema: 'keyword' });
    expectOk(await target.http('DELETE', `/collections/${name}/index/kw?wait=true`));
    assert.deepEqual(await schemaOf(name), {});
  });

  test('a keyword index changes no filter result (§1, §4.6)', async () => {
    const name = await seedCollection(target, 'ix_keyword', [
      { id: 1, vector: v, payload: { kw: 'Apple pie' } },
      { id: 2, vector: v, payload: { kw: 'apple' } },
    ]);
    await createIndex(name, { field_name: 'kw', field_schema: 'keyword' });
    assert.deepEqual(await textIds(name, 'kw', 'pple'), [1, 2]);
    assert.deepEqual(await textIds(name, 'kw', 'Apple'), [1]);
    const exact = { must: [{ key: 'kw', match: { value: 'apple' } }] };
    const page = expectOk(await target.http('POST', `/collections/${name}/points/scroll`, { filter: exact }));
    assert.deepEqual(
      page.points.map((p: { id: unknown }) => p.id),
      [2],
    );
  });

  test('match.text is a substring test without a text index and a token test with one (§4.4)', async () => {
    const name = await seedCollection(target, 'ix_tokens', [
      { id: 1, vector: v, payload: { messageIds: 'Alice_1700000000000_5,Alice_1700000000001_6' } },
      { id: 2, vector: v, payload: { messageIds: 'Alice_1700000000000_50' } },
    ]);
    assert.deepEqual(await textIds(name, 'messageIds', 'Alice_1700000000000_5'), [1, 2]);
    assert.deepEqual(await textIds(name, 'messageIds', 'Alice_1700000000000_50'), [2]);
    assert.deepEqual(await textIds(name, 'messageIds', 'Alice_1700000000001_5'), []);
    assert.deepEqual(await textIds(name, 'messageIds', 'alice_1700000000000_5'), []);

    await createIndex(name, { field_name: 'messageIds', field_schema: { type: 'text' } });
    const tokenCases: [string, unknown[]][] = [
      ['Alice_1700000000000_5', [1]],
      ['Alice_1700000000001_5', [1]],
      ['alice_1700000000000_6', [1]],
      ['ALICE 5', [1]],
      ['6', [1]],
      ['Alice_1700000000000_50', [2]],
      ['alice', [1, 2]],
      ['Bob_1700000000000_5', []],
      ['lice_1700000000000_5', []],
      ['', []],
    ];
    for (const [text, expected] of tokenCases) {
      assert.deepEqual(
        await textIds(name, 'messageIds', text),
        expected,
        `text index, query ${JSON.stringify(text)}`,
      );
    }
    const exact = { must: [{ key: 'messageIds', match: { value: 'Alice_1700000000000_50' } }] };
    const page = expectOk(await target.http('POST', `/collections/${name}/points/scroll`, { filter: exact }));
    assert.deepEqual(
      page.points.map((p: { id: unknown }) => p.id),
      [2],
    );

    expectOk(await target.http('DELETE', `/collections/${name}/index/messageIds?wait=true`));
    assert.deepEqual(await textIds(name, 'messageIds', 'Alice_1700000000000_5'), [1, 2]);
    assert.deepEqual(await textIds(name, 'messageIds', 'ALICE 5'), []);
  });

  test('a whitespace tokenizer keeps the comma-joined ids as one token (§4.4)', async () => {
    const value = 'Alice_1700000000000_5,Alice_1700000000001_6';
    const name = await seedCollection(target, 'ix_ws', [
      { id: 1, vector: v, payload: { messageIds: value } },
    ]);
    await createIndex(name, {
      field_name: 'messageIds',
      field_schema: { type: 'text', tokenizer: 'whitespace' },
    });
    assert.deepEqual(await textIds(name, 'messageIds', 'Alice_1700000000000_5'), []);
    assert.deepEqual(await textIds(name, 'messageIds', value), [1]);
  });
  test("an integer index with both 'lookup' and 'range' off is a 422, as Qdrant's validator answers", async () => {
    const name = await seedCollection(target, 'ix_int_caps', [{ id: 1, vector: v, payload: { n: 1 } }]);
    const off = { field_name: 'n', field_schema: { type: 'integer', lookup: false, range: false } };
    expectError(
      await target.http('PUT', `/collections/${name}/index?wait=true`, off),
      422,
      /Validation error: the 'lookup' and 'range' capabilities can't be both disabled/,
    );
    // Nothing was indexed; one capability alone is an index.
    assert.deepEqual(await schemaOf(name), {});
    await createIndex(name, {
      field_name: 'n',
      field_schema: { type: 'integer', lookup: false, range: true },
    });
    assert.deepEqual(Object.keys(await schemaOf(name)), ['n']);
  });
});
