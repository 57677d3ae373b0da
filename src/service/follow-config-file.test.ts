/** @module followConfigFile: which polls of the file make a reload (a write, a deletion) and which do not. */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  unwatchFile,
  watchFile,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { followConfigFile } from './follow-config-file.js';

async function waitUntil(what: string, condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 400 && !condition(); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(condition(), `never happened: ${what}`);
}

test('an emptied file (a write caught midway) is not read; the next write is, and so is a deletion', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-follow-'));
  const path = join(dir, 'memory-pool.yaml');
  writeFileSync(path, 'listen: { port: 3102 }\n');
  const reads: string[] = [];
  const stop = followConfigFile(
    path,
    () => reads.push(existsSync(path) ? readFileSync(path, 'utf8') : 'missing'),
    {
      intervalMs: 20,
    },
  );
  // A second listener on the same path is called after the follower's, on the same poll.
  let sawEmpty = false;
  const observe = (current: { size: number; mtimeMs: number }) => {
    if (current.size === 0 && current.mtimeMs !== 0) sawEmpty = true;
  };
  watchFile(path, { interval: 20 }, observe);
  try {
    // The poll's first look is asynchronous: write until a change is read, so it has its baseline.
    for (let n = 1; reads.length === 0 && n < 400; n++) {
      writeFileSync(path, `# warming up${'.'.repeat(n)}\n`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(reads.length > 0, 'the poll never saw a write');
    writeFileSync(path, '');
    sawEmpty = false;
    await waitUntil('the empty file polled', () => sawEmpty);
    writeFileSync(path, 'listen: { port: 3103 }\n');
    await waitUntil('the write read', () => reads.includes('listen: { port: 3103 }\n'));
    assert.ok(!reads.includes(''), 'the emptied file was read');
    unlinkSync(path);
    await waitUntil('the deletion read', () => reads.includes('missing'));
  } finally {
    unwatchFile(path, observe);
    stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
