import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { runDoctor } from '../cli/commands/doctor-command.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from '../cli/commands/test-support/data-tool-fixture.js';

describe('doctor says which recall mode each bot is in', () => {
  let service: TestService;
  let client: QdrantClient;
  let collection: string;
  let config: string;
  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    config = await writeDataToolConfig(service.dir, 'doctor', { service });
  });
  after(() => service.close());

  const doctor = async () => {
    const io = captureOutput();
    const code = await runDoctor({ config }, io);
    return { code, out: io.text().out };
  };
  const explainMode = async () => {
    const response = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'Anna in Lisbon',
      explain: true,
    });
    return [...new Set(response.json.hits.map((hit: { explain: { mode: string } }) => hit.explain.mode))];
  };

  test('hybrid while the parts index is complete', async () => {
    assert.deepEqual(await explainMode(), ['hybrid']);
    const { out } = await doctor();
    assert.match(
      out,
      new RegExp(`pass {2}bot mythos: recall mode: hybrid: passages from ${collection}__parts`),
    );
  });

  test('a bot with memories whose parts index is not complete fails, naming the fallback and the fix', async () => {
    const journal = openSqliteJournal(service.config.dataDir);
    await journal.partsIndexes.markIncomplete(collection, Date.now());
    await journal.close();
    assert.deepEqual(await explainMode(), ['chunk-only'], 'recall fell back, as doctor is about to say');
    const { code, out } = await doctor();
    assert.equal(code, 1);
    assert.match(
      out,
      /FAIL {2}bot mythos: recall mode: chunk-only: its parts index \S+ is not complete, so recall falls back to whole chunks .*\n {6}fix: Run `memory-pool reindex --bot mythos`/,
    );
  });

  test('a missing parts index is named too', async () => {
    await client.deleteCollection(partsCollectionName(collection));
    const { code, out } = await doctor();
    assert.equal(code, 1);
    assert.match(out, /FAIL {2}bot mythos: recall mode: chunk-only: its parts index \S+ does not exist/);
  });
});
