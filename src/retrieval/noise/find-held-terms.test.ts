/**
 * @module The held-terms read as serve makes it (one pass over the embedded store's index, posted to its thread)
 * answers exactly as one lexical search per term over REST, with and without a recall's filter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { partsCollectionName } from '../../parts/parts-collection-name.js';
import { encodeDocumentTerms } from '../../parts/sparse-vector.js';
import { tokenizeText } from '../../parts/tokenize-text.js';
import { startTestQdrant, type TestQdrant } from '../../service/test-support/start-test-qdrant.js';
import type { MemoryStore } from '../../store/memory-store.js';
import type { StoreFilter } from '../../store/point-store.js';
import { createQdrantPointStore } from '../../store/qdrant/qdrant-point-store.js';
import { findHeldTerms } from './find-held-terms.js';
import { HELEN_MESSAGES, HELEN_NEVER_DISCUSSED, HELEN_REAL } from './test-support/helen-week.js';

const COLLECTION = 'mem_held';
/** Every word of the questions and of Helen's week, and some no message says. */
const TERMS = [
  ...new Set(
    [...HELEN_NEVER_DISCUSSED, ...HELEN_REAL.map((r) => r.question), ...HELEN_MESSAGES.map((m) => m.text)]
      .flatMap((text) => tokenizeText(text))
      .concat(['zeppelin', 'oboe']),
  ),
];
const FROM_HERMES: StoreFilter = { must: [{ key: 'source', match: { value: 'hermes' } }] };

describe('findHeldTerms: one pass over the embedded store, the same answer as a search per term', () => {
  let qdrant: TestQdrant;
  let posted: MemoryStore;
  let rest: MemoryStore;
  before(async () => {
    qdrant = await startTestQdrant({ onThread: true });
    posted = createQdrantPointStore({ url: qdrant.url, posted: qdrant.server as never });
    rest = createQdrantPointStore({ url: qdrant.url });
    const parts = partsCollectionName(COLLECTION);
    await posted.createHybridCollection(parts, 3);
    // Helen's lines from Discord, the bot's answers from Hermes: a filter on source splits the words.
    await posted.upsertHybridPoints(
      parts,
      HELEN_MESSAGES.map((message, i) => ({
        id: i + 1,
        dense: [1, i, 0],
        sparse: encodeDocumentTerms(tokenizeText(message.text)),
        payload: { chunkId: `c${i}`, source: message.speaker_kind === 'user' ? 'discord' : 'hermes' },
      })),
    );
  });
  after(() => qdrant.close());

  const held = async (store: MemoryStore, terms: readonly string[], filter?: StoreFilter) =>
    [...(await findHeldTerms(store, COLLECTION, terms, filter))].sort();

  test('every term of the conversation and its questions: held the same way, 16 at a time', async () => {
    for (let at = 0; at < TERMS.length; at += 16) {
      const terms = TERMS.slice(at, at + 16);
      assert.deepEqual(await held(posted, terms), await held(rest, terms));
      assert.deepEqual(await held(posted, terms, FROM_HERMES), await held(rest, terms, FROM_HERMES));
    }
  });

  test('a word no memory says is not held; one said only outside the filter is not held within it', async () => {
    assert.deepEqual(await held(posted, ['greyhound', 'zeppelin', 'submarin']), ['greyhound']);
    assert.deepEqual(await held(posted, ['greyhound', 'love'], FROM_HERMES), ['love']);
  });

  test('a collection without a parts index is a store error both ways (the cut then finds nothing unsaid)', async () => {
    for (const store of [posted, rest]) {
      await assert.rejects(
        findHeldTerms(store, 'mem_never_written', ['greyhound'], undefined),
        (error: Error) => /mem_never_written__parts/.test(error.message),
      );
    }
  });

  test('past 16 terms every term counts as held (the cut does not apply)', async () => {
    const many = [...TERMS.filter((term) => term !== 'zeppelin').slice(0, 16), 'zeppelin'].sort();
    assert.deepEqual(await held(posted, many), many);
  });
});
