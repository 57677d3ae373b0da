/**
 * @module Contract: full-text index options that change matching (issue 37 item 1). Custom stopwords are dropped
 * from documents and queries as Qdrant's TokensProcessor does; language stopword lists, `stemmer` and
 * `ascii_folding` are refused by name in the embedded store (a real Qdrant applies them), never accepted and ignored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const v = [1, 0, 0, 0];

describe('text index options', () => {
  let target: ContractTarget;
  let name: string;
  const ids = async (match: Record<string, string>) => {
    const page = expectOk(
      await target.http('POST', `/collections/${name}/points/scroll`, {
        filter: { must: [{ key: 'title', match }] },
        with_payload: false,
      }),
    );
    return page.points.map((p: { id: number }) => p.id);
  };
  before(async () => {
    target = await openTarget();
    name = await seedCollection(target, 'txtopt', [
      { id: 1, vector: v, payload: { title: 'The Robot of the Stars' } },
      { id: 2, vector: v, payload: { title: 'a tale of two cities' } },
      { id: 3, vector: v, payload: { title: 'Robots dream' } },
    ]);
  });
  after(() => target.close());

  test('custom stopwords are dropped from documents and queries, after lowercasing', async () => {
    expectOk(
      await target.http('PUT', `/collections/${name}/index?wait=true`, {
        field_name: 'title',
        field_schema: { type: 'text', stopwords: { custom: ['The', 'of', 'a'] } },
      }),
    );
    // "of" and "the" are no tokens any more: only "robot" and "star" can match.
    assert.deepEqual(await ids({ text_any: 'robot of the star' }), [1]);
    assert.deepEqual(await ids({ text_any: 'of the' }), []);
    assert.deepEqual(await ids({ text: 'tale of two' }), [2]);
  });

  test('language stopwords, stemmer and ascii_folding are refused by name, not ignored', async (t) => {
    if (!target.isEmbedded) return t.skip('a real Qdrant implements them');
    const create = (options: object) =>
      target.http('PUT', `/collections/${name}/index?wait=true`, {
        field_name: 'other',
        field_schema: { type: 'text', ...options },
      });
    expectError(await create({ stopwords: 'english' }), 400, /`stopwords: "english"`.*not supported/);
    expectError(
      await create({ stopwords: { languages: ['english'], custom: ['x'] } }),
      400,
      /`stopwords\.languages`.*not supported/,
    );
    expectError(
      await create({ stemmer: { type: 'snowball', language: 'english' } }),
      400,
      /`stemmer`.*not supported/,
    );
    expectError(await create({ ascii_folding: true }), 400, /`ascii_folding`.*not supported/);
    expectOk(await create({ ascii_folding: false, stopwords: { custom: [] } }));
  });
});
