import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatChunk } from '../chunking/chunk-format.js';
import type { MemoryMessage } from '../chunking/memory-message.js';
import type { FusedEntry } from './fuse-scores.js';
import { type PassageSources, recallPassages } from './recall-passages.js';

const speakers = { selfSpeaker: 'Mythos', speakerAliases: {} };
const message = (id: string, text: string, minute: number): MemoryMessage => ({
  bot: 'mythos',
  source: 'discord',
  messageId: id,
  speakerKind: 'user',
  speakerName: 'Helen',
  text,
  ts: Date.UTC(2026, 0, 5) + minute * 60_000,
});
const chunkA = [message('a1', 'one', 0), message('a2', 'two', 1), message('a3', 'three', 2)];
const chunkB = [message('b1', 'four', 3), message('b2', 'five', 4)];
const stored = new Map([
  ['A', { id: 'A', payload: { ...formatChunk(chunkA, speakers) } }],
  ['B', { id: 'B', payload: { ...formatChunk(chunkB, speakers) } }],
]);
/** A fused part; `cosine` its dense score when the dense search found it (else its words alone did). */
const part = (chunkId: string, messageIds: string, relative: number, cosine?: number): FusedEntry => ({
  chunkId,
  part: { id: `${chunkId}/${messageIds}`, messageIds },
  fused: relative,
  relative,
  signals: {
    part_lexical: { rank: 1, score: 7 },
    ...(cosine === undefined ? {} : { part_dense: { rank: 1, score: cosine } }),
  },
});
const ranking = {
  entries: [part('A', 'a2,a3', 1, 0.42), part('B', 'b1,b2', 0.8, 0.47), part('A', 'a1,a2', 0.7, 0.31)],
  chunks: new Map(),
};
const sources = (overrides: Partial<PassageSources> = {}): PassageSources => ({
  bot: 'mythos',
  speakers,
  readChunks: async (ids) => ids.flatMap((id) => (stored.has(String(id)) ? [stored.get(String(id))!] : [])),
  forgottenIds: async () => new Set(),
  chunkMessages: async (chunkId) => (chunkId === 'A' ? chunkA : chunkId === 'B' ? chunkB : []),
  ...overrides,
});
const options = { limit: 10, excludeMessageIds: new Set<string>() };

test('passages come best first by the fusion, each trimmed to its new messages, scored by its dense cosine', async () => {
  const hits = await recallPassages(sources(), ranking, options);
  assert.deepEqual(
    hits.map((h) => [h.messageIds, h.text, h.score, h.explain?.fused]),
    [
      ['a2,a3', '[2026-01-05]\nHelen: two\nHelen: three', 0.42, 1],
      ['b1,b2', '[2026-01-05]\nHelen: four\nHelen: five', 0.47, 0.8],
      ['a1', '[2026-01-05]\nHelen: one', 0.31, 0.7],
    ],
  );
});

test('a part found by its words alone is scored by its cosine, asked once for all such parts', async () => {
  const asked: string[][] = [];
  const lexicalOnly = {
    entries: [part('A', 'a2,a3', 1), part('B', 'b1,b2', 0.6, 0.5), part('A', 'a1,a2', 0.5)],
    chunks: new Map(),
  };
  const partCosines = async (ids: readonly string[]) => {
    asked.push([...ids]);
    return new Map([['A/a2,a3', 0.12]]);
  };
  const hits = await recallPassages(sources({ partCosines }), lexicalOnly, options);
  assert.deepEqual(
    hits.map((h) => [h.messageIds, h.score]),
    [
      ['a2,a3', 0.12],
      ['b1,b2', 0.5],
      ['a1', 0],
    ],
  );
  assert.deepEqual(asked, [['A/a2,a3', 'A/a1,a2']]);
});

test("word-only parts' cosines are asked beside the chunk reads, not after them (issue 37: ~13 ms at 10k chunks)", async () => {
  const order: string[] = [];
  const lexicalOnly = { entries: [part('A', 'a2,a3', 1), part('B', 'b1,b2', 0.6, 0.5)], chunks: new Map() };
  let cosinesAsked!: () => void;
  const asked = new Promise<void>((resolve) => {
    cosinesAsked = resolve;
  });
  const hits = await recallPassages(
    sources({
      readChunks: async (ids) => {
        order.push('chunks asked');
        // Answers only once the cosines are asked too (or after 200 ms): a sequential recall waits here.
        await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 200))]);
        order.push('chunks read');
        return ids.flatMap((id) => (stored.has(String(id)) ? [stored.get(String(id))!] : []));
      },
      partCosines: async () => {
        order.push('cosines asked');
        cosinesAsked();
        return new Map([['A/a2,a3', 0.12]]);
      },
    }),
    lexicalOnly,
    options,
  );
  assert.deepEqual(order, ['cosines asked', 'chunks asked', 'chunks read']);
  // The same answer as asked one after the other.
  assert.deepEqual(
    hits.map((h) => [h.messageIds, h.score]),
    [
      ['a2,a3', 0.12],
      ['b1,b2', 0.5],
    ],
  );
});

test('a chunk holding a forgotten message (a forget still rewriting it) gives nothing, and others fill in', async () => {
  const hits = await recallPassages(
    sources({ forgottenIds: async (_bot, ids) => new Set(ids.filter((id) => id === 'a3')) }),
    ranking,
    { limit: 1, excludeMessageIds: new Set() },
  );
  assert.deepEqual(
    hits.map((h) => h.messageIds),
    ['b1,b2'],
  );
});

test('a chunk gone from the store gives nothing; without journal messages a chunk is returned whole, once', async () => {
  const gone = await recallPassages(sources({ readChunks: async () => [] }), ranking, options);
  assert.deepEqual(gone, []);
  const whole = await recallPassages(sources({ chunkMessages: async () => [] }), ranking, options);
  assert.deepEqual(
    whole.map((h) => h.messageIds),
    ['a1,a2,a3', 'b1,b2'],
  );
});
