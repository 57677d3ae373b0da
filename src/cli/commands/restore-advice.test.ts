/**
 * @module `memory-pool restore`'s advice after a reembed switch: restoring into the collection the bot uses
 * now (the switched-to one) needs no config change, so the summary does not ask to set bots.B.collection.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { TEST_DIMENSIONS } from '../../config/test-support/test-bot.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import type { TestService } from '../../service/test-support/start-test-service.js';
import { runExport } from './export-command.js';
import { runRestore } from './restore-command.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from './test-support/data-tool-fixture.js';

let service: TestService;
let collection: string;
before(async () => {
  ({ service, collection } = await startServiceWithMemories());
});
after(() => service.close());

test('a restore into the switched-to collection does not advise setting bots.B.collection', async () => {
  const source = await writeDataToolConfig(service.dir, 'source', { service });
  const file = join(service.dir, 'advice.jsonl.gz');
  const exported = captureOutput();
  assert.equal(await runExport({ bot: 'mythos', config: source, out: file, json: true }, exported), 0);
  // Another machine whose journal says the bot was switched to a new, still empty collection.
  const target = await writeDataToolConfig(service.dir, 'switched', { service, ownJournal: true });
  const journal = openSqliteJournal(join(service.dir, 'switched', 'service'));
  const switched = `${collection}_v2`;
  const embedding = JSON.stringify({ provider: 'hashing', dimensions: TEST_DIMENSIONS });
  await journal.routes.beginReembed(collection, collection, switched, embedding, 1);
  await journal.routes.switchTo(collection, switched, 2);
  await journal.close();
  const io = captureOutput();
  assert.equal(await runRestore(file, { bot: 'mythos', config: target }, io), 0, io.text().err);
  assert.match(io.text().out, new RegExp(`^${switched} \\(bot mythos\\): restored`));
  assert.doesNotMatch(io.text().out, /Set bots\.mythos\.collection/);
});
