import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AliasTable } from './alias-table.js';

describe('AliasTable', () => {
  const collections = new Set(['mem_alice', 'mem_bob']);
  const exists = (name: string) => collections.has(name);

  test('a rename onto a collection name is refused, so the alias cannot shadow that collection', () => {
    const table = new AliasTable(new Map([['tmp', 'mem_bob']]));
    assert.throws(
      () => table.plan([{ kind: 'rename', from: 'tmp', to: 'mem_alice' }], exists),
      /Collection `mem_alice` already exists!/,
    );
    assert.equal(table.target('mem_alice'), undefined);
  });

  test('a rename to a free name moves the alias', () => {
    const table = new AliasTable(new Map([['tmp', 'mem_bob']]));
    const next = table.plan([{ kind: 'rename', from: 'tmp', to: 'live' }], exists);
    assert.deepEqual([...next], [['live', 'mem_bob']]);
  });
});
