import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { configSchema } from '../../config/config-schema.js';
import { testBot } from '../../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import {
  HELEN_RETRIEVE,
  HELEN_MESSAGES as MESSAGES,
  HELEN_NEVER_DISCUSSED as NEVER_DISCUSSED,
  HELEN_REAL as REAL,
} from './test-support/helen-week.js';

type Answer = { hits: { messageIds: string }[]; formatted: string };

describe('the noise cut: nothing recalled when the question is about what no memory mentions', () => {
  let service: TestService;
  before(async () => {
    const retrieve = HELEN_RETRIEVE;
    service = await startTestService({
      bots: [
        testBot('mythos', { retrieve: { ...retrieve, noiseCut: { share: 0.12, score: 0.6 } } }),
        testBot('uncut', {
          collection: 'mem_mythos',
          retrieve: { ...retrieve, noiseCut: { share: 0, score: 0.6 } },
        }),
      ],
    });
    const saved = await service.post('/save', { bot: 'mythos', source: 'discord', messages: MESSAGES });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
  });
  after(() => service.close());

  const retrieve = async (body: Record<string, unknown>) => {
    const response = await service.post('/retrieve', { bot: 'mythos', ...body });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    return response.json as Answer;
  };

  test('a never-discussed question injects nothing: no hits and no [Past chat memories] block', async () => {
    for (const question of NEVER_DISCUSSED) {
      assert.deepEqual(await retrieve({ query_text: question }), { hits: [], formatted: '' }, question);
    }
  });

  test('explain says why nothing was recalled: the unsaid words and the share of the question they carry', async () => {
    const response = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: NEVER_DISCUSSED[0],
      explain: true,
    });
    const { hits, noise_cut } = response.json as {
      hits: unknown[];
      noise_cut: { unsaid_words: string[]; share: number };
    };
    assert.deepEqual(hits, []);
    assert.ok(noise_cut.unsaid_words.includes('submarine'), JSON.stringify(noise_cut));
    assert.ok(noise_cut.share >= 0.12 && noise_cut.share <= 1, JSON.stringify(noise_cut));
  });

  test('a real question keeps its hits, its answer among them', async () => {
    for (const { question, evidence } of REAL) {
      const { hits, formatted } = await retrieve({ query_text: question });
      assert.equal(hits.length, 5, question);
      assert.ok(
        hits.some((hit) => hit.messageIds.split(',').includes(evidence)),
        question,
      );
      assert.ok(formatted.startsWith('\n[Past chat memories]\n\n'));
    }
  });

  test('noise_cut 0, or a bot whose share is 0, turns the cut off: limit is filled as before', async () => {
    const question = NEVER_DISCUSSED[0]!;
    assert.equal((await retrieve({ query_text: question, noise_cut: 0 })).hits.length, 5);
    const uncut = await service.post('/retrieve', { bot: 'uncut', query_text: question });
    assert.equal((uncut.json as Answer).hits.length, 5);
    // And a request may turn it on for a bot that has it off.
    const asked = await service.post('/retrieve', { bot: 'uncut', query_text: question, noise_cut: 0.12 });
    assert.deepEqual(asked.json, { hits: [], formatted: '' });
  });

  test('a negative share, one over 1, or text is a 400 naming noise_cut', async () => {
    for (const noise_cut of [-0.1, 1.5, '0.12', null]) {
      const response = await service.post('/retrieve', {
        bot: 'mythos',
        query_text: REAL[0]!.question,
        noise_cut,
      });
      assert.equal(response.status, 400, JSON.stringify(noise_cut));
      assert.equal(response.json.error.field, 'noise_cut', JSON.stringify(response.json));
      assert.match(response.json.error.message, /0 \(no cut\) to 1/);
    }
  });
});

test('retrieve.noiseCut is on by default (share 0.12, score 0.6), and a bad one names the key', () => {
  const parsed = configSchema.parse({ bots: { mythos: { selfSpeaker: 'Mythos' } } });
  assert.deepEqual(parsed.bots.mythos!.retrieve.noiseCut, { share: 0.12, score: 0.6 });
  const off = configSchema.parse({
    bots: { mythos: { selfSpeaker: 'Mythos', retrieve: { noiseCut: { share: 0 } } } },
  });
  assert.deepEqual(off.bots.mythos!.retrieve.noiseCut, { share: 0, score: 0.6 });
  for (const noiseCut of [{ share: 1.2 }, { score: -1 }, { shares: 0.1 }]) {
    const bad = configSchema.safeParse({
      bots: { mythos: { selfSpeaker: 'Mythos', retrieve: { noiseCut } } },
    });
    assert.ok(!bad.success, JSON.stringify(noiseCut));
    assert.deepEqual(bad.error.issues[0]!.path.slice(0, 4), ['bots', 'mythos', 'retrieve', 'noiseCut']);
  }
});
