/**
 * @module The rename pass through the assembled service, on both journal backends: a link made just before the
 * service stops is renamed by the next start; `/ready` (200 throughout; counts only for the public, by bot for an
 * admin key) and `GET /bots/{bot}/stats` say what is left while it runs, and stop saying it once it is done.
 */
// npm test: alone (starts Postgres, through describeOnBothJournals)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { testBot } from '../config/test-support/test-bot.js';
import { ownerKey } from '../http/test-support/test-api-keys.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import {
  describeOnBothJournals,
  type OpenJournal,
  startPeopleService,
} from './test-support/people-service.js';

const DAY = Date.UTC(2026, 10, 2, 9);
const HOUR = 3_600_000;

function defineServiceCases(open: OpenJournal): void {
  test('a link made just before a stop is renamed by the next start; /ready and stats show the pass, then stop', {
    timeout: 30_000,
  }, async () => {
    const store = createMemoryPointStore();
    // One store across both starts (as Qdrant outlives serve), and the same journal opened again.
    const options = { store, apiKeys: [ownerKey] };
    const a = await startPeopleService(await open('restarted'), testBot('mythos'), options);
    const messages = [0, 1, 2].map((i) => ({
      message_id: `d${i}`,
      speaker_kind: 'user',
      discord_user_id: '1234',
      speaker_name: 'anna_d',
      text: `lighthouse ${i}`,
      ts: DAY + i * 6 * HOUR,
      channel_id: `c${i}`,
    }));
    assert.equal(
      (await a.request('POST', '/save', { bot: 'mythos', source: 'discord', messages })).status,
      200,
    );
    await a.writer.runOnce({ flush: true });
    const texts = () => store.heldPoints('mem_mythos').map((p) => String(p.payload.text));
    assert.equal(texts().filter((t) => t.includes('anna_d: ')).length, 3);
    const ready = await a.request('GET', '/ready', undefined, null);
    assert.deepEqual([ready.status, ready.json.renaming], [200, undefined], 'nothing shown with no pass');

    const linked = await a.request('POST', '/bots/mythos/people', {
      name: 'Anna',
      accounts: [{ discord_user_id: '1234' }],
    });
    assert.equal(linked.status, 201);
    // Until the pass runs, its account waits; the public reads counts only, an admin key by bot.
    const waiting = { chunksLeft: 0, accountsWaiting: 1 };
    const publicReady = await a.request('GET', '/ready', undefined, null);
    assert.deepEqual([publicReady.status, publicReady.json.renaming], [200, waiting]);
    assert.deepEqual((await a.request('GET', '/ready')).json.renaming, {
      ...waiting,
      bots: { mythos: waiting },
    });
    assert.deepEqual((await a.request('GET', '/bots/mythos/stats')).json.renaming, waiting);
    // Stopped (as a kill would) before the pass: the request stays in the journal.
    await a.close();

    const b = await startPeopleService(await open('restarted'), testBot('mythos'), options);
    try {
      const queued = { chunksLeft: 3, accountsWaiting: 0 };
      for (let tries = 0; tries < 100; tries++) {
        const now = (await b.request('GET', '/ready', undefined, null)).json.renaming;
        if (JSON.stringify(now) === JSON.stringify(queued)) break;
        await sleep(50);
      }
      const during = await b.request('GET', '/ready', undefined, null);
      assert.deepEqual([during.status, during.json.ready, during.json.renaming], [200, true, queued]);
      assert.deepEqual((await b.request('GET', '/bots/mythos/stats')).json.renaming, queued);

      await b.writer.runOnce({ flush: true });
      assert.deepEqual(
        texts().filter((t) => t.includes('anna_d: ')),
        [],
        'every chunk rewritten',
      );
      assert.equal(texts().filter((t) => t.includes('Anna: ')).length, 3);
      const done = await b.request('GET', '/ready', undefined, null);
      assert.deepEqual([done.status, 'renaming' in done.json], [200, false]);
      assert.equal('renaming' in (await b.request('GET', '/bots/mythos/stats')).json, false);
    } finally {
      await b.close();
    }
  });
}

describeOnBothJournals('rename pass in the service', defineServiceCases);
