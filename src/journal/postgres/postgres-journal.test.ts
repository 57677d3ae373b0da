import { describeJournalContract } from '../test-support/journal-contract.js';
import { skipWithoutPostgres, startPostgres } from '../test-support/start-postgres.js';
import { openPostgresJournal } from './postgres-journal.js';

if (skipWithoutPostgres === false) {
  describeJournalContract('Postgres (two pools to one database)', async () => {
    const server = await startPostgres();
    const url = await server.createDatabase('journal_contract');
    return {
      connect: () => openPostgresJournal(url),
      close: () => server.stop(),
    };
  });
} else {
  const { test } = await import('node:test');
  test('Journal contract: Postgres', { skip: skipWithoutPostgres }, () => {});
}
