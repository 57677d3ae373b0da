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
    // A first write read back: the poll is running and has its baseline (its first look is asynchronous).
    writeFileSync(path, 'listen: { port: 3101, host: 127.0.0.1 }\n');
    await waitUntil('the first write read', () => reads.length > 0);
    writeFileSync(path, '');
    await waitUntil('the empty file polled', () => sawEmpty);
    writeFileSync(path, 'listen: { port: 3103 }\n');
    await waitUntil('the write read', () => reads.length > 1);
    assert.deepEqual(reads, ['listen: { port: 3101, host: 127.0.0.1 }\n', 'listen: { port: 3103 }\n']);
    unlinkSync(path);
    await waitUntil('the deletion read', () => reads.length > 2);
    assert.equal(reads[2], 'missing');
  } finally {
    unwatchFile(path, observe);
    stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
