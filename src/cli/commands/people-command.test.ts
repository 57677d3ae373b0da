/** @module `memory-pool people`: link, list, rename and unlink through the journal, and the refusals as one line. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { runPeople } from './people-command.js';
import { captureOutput } from './test-support/data-tool-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-people-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'memory-pool.yaml');
writeFileSync(
  config,
  `dataDir: ${JSON.stringify(join(dir, 'data'))}\nbots: { mythos: { selfSpeaker: Mythos, collection: mem_mythos } }\n`,
);

async function people(action: 'list' | 'link' | 'rename' | 'unlink', args: string[], extra = {}) {
  const io = captureOutput();
  const code = await runPeople(action, args, { bot: 'mythos', config, ...extra }, io);
  return { code, ...io.text() };
}

test('link, list, rename, add, unlink one account, then the person; refusals are one line naming the fix', async () => {
  const linked = await people('link', ['discord:1234', 'telegram:5678'], { name: 'Anna', json: true });
  assert.equal(linked.code, 0, linked.err);
  const anna = JSON.parse(linked.out) as { id: string; accounts: string[] };
  assert.deepEqual(anna.accounts, ['discord:1234', 'telegram:5678']);
  const taken = await people('link', ['discord:1234'], { name: 'Bob' });
  assert.equal(taken.code, 1);
  assert.match(taken.err, /^error: accounts: the account discord:1234 is already linked to Anna/);
  assert.match(
    (await people('link', ['nonsense'], { name: 'Bob' })).err,
    /is not an account; write discord:<id>/,
  );
  assert.match((await people('link', ['slack:1'], { name: ' ' })).err, /^error: --name must not be empty/);
  assert.equal((await people('rename', [anna.id, 'Anne', 'Marie'])).code, 0);
  assert.equal((await people('link', ['persona:Anna M'], { person: anna.id })).code, 0);
  assert.equal((await people('unlink', [anna.id, 'telegram:5678'])).code, 0);
  const listed = await people('list', []);
  assert.equal(listed.out, `${anna.id}  Anne Marie  persona:Anna M, discord:1234\n`);
  const journal = openSqliteJournal(join(dir, 'data'));
  try {
    assert.equal((await journal.people.get('mythos', anna.id))?.name, 'Anne Marie');
  } finally {
    await journal.close();
  }
  const gone = await people('unlink', [anna.id]);
  assert.match(gone.out, /unlinked from 2 account\(s\); no message was forgotten/);
  assert.equal((await people('list', [])).out, 'mythos has no people linked yet\n');
  assert.match((await people('rename', ['p_nobody', 'X'])).err, /has no person "p_nobody"/);
});
