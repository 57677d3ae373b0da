import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runExport } from './export-command.js';
import { captureOutput, writeDataToolConfig } from './test-support/data-tool-fixture.js';

describe('export --out to a path it cannot write', () => {
  let dir: string;
  let config: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-export-out-'));
    config = await writeDataToolConfig(dir, 'cfg');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const exportTo = async (out: string) => {
    const io = captureOutput();
    const code = await runExport({ bot: 'mythos', config, out }, io);
    return { code, ...io.text() };
  };
  /** Exit 1, one line naming the path and the fix, nothing on stdout. */
  const assertRefused = (result: { code: number; out: string; err: string }, line: string) => {
    assert.equal(result.code, 1);
    assert.equal(result.out, '');
    assert.equal(result.err, `${line}\n`);
  };

  test('a folder that does not exist', async () => {
    const out = join(dir, 'missing-folder', 'x.jsonl.gz');
    assertRefused(
      await exportTo(out),
      `error: --out ${out}: the folder ${join(dir, 'missing-folder')} does not exist. Create it first, or choose another path.`,
    );
    assert.ok(!readdirSync(dir).includes('missing-folder'));
  });

  test('an existing folder', async () => {
    const out = join(dir, 'snapshots');
    mkdirSync(out);
    assertRefused(
      await exportTo(out),
      `error: --out ${out}: is a folder. Give a file name in it, e.g. --out ${join(out, 'mythos.jsonl.gz')}.`,
    );
    assert.deepEqual(readdirSync(out), []);
    assert.ok(!readdirSync(dir).some((name) => name.endsWith('.partial')), 'no .partial left');
  });

  test('a path inside a file', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const out = join(file, 'x.jsonl');
    assertRefused(
      await exportTo(out),
      `error: --out ${out}: ${file} is not a folder. Choose a path inside a folder.`,
    );
  });

  test('a folder that is not writable', {
    skip: process.getuid?.() === 0 && 'root writes anywhere',
  }, async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    const out = join(locked, 'x.jsonl');
    try {
      assertRefused(
        await exportTo(out),
        `error: --out ${out}: the folder ${locked} is not writable. Choose a folder you can write to, or fix its permissions.`,
      );
    } finally {
      chmodSync(locked, 0o700);
    }
  });

  for (const [what, name, line] of [
    [
      'a missing folder given with a trailing slash',
      'newdir/',
      (out: string) =>
        `error: --out ${out}: ends with a slash, so it names a folder. Give a file name in it, e.g. --out ${join(out, 'mythos.jsonl.gz')}.`,
    ],
    [
      'a file given with a trailing slash',
      'a-file/',
      (out: string) =>
        `error: --out ${out}: ends with a slash, so it names a folder. Give a file name in it, e.g. --out ${join(out, 'mythos.jsonl.gz')}.`,
    ],
    [
      '`-` (stdout is the default without --out)',
      '-',
      (out: string) =>
        `error: --out ${out}: is not a file name. Leave out --out to write the snapshot to stdout, or give a file name, e.g. --out mythos.jsonl.gz.`,
    ],
    [
      'an empty path',
      '',
      (out: string) => `error: --out ${out}: is empty. Give a file name, e.g. --out mythos.jsonl.gz.`,
    ],
  ] as const) {
    test(what, async () => {
      writeFileSync(join(dir, 'a-file'), 'not a folder');
      const cwd = process.cwd();
      process.chdir(dir); // relative paths land in the test's folder
      try {
        const before = readdirSync(dir).sort();
        assertRefused(await exportTo(name), line(name));
        assert.deepEqual(readdirSync(dir).sort(), before, 'nothing written');
      } finally {
        process.chdir(cwd);
      }
    });
  }

  test('a write that fails once started is one line naming the path, and leaves nothing', async () => {
    const out = join(dir, 'blocked.jsonl');
    // The .partial beside it is a folder: the write fails when the file is opened, after the checks.
    mkdirSync(`${out}.partial`);
    const result = await exportTo(out);
    assert.equal(result.code, 1);
    assert.match(
      result.err,
      new RegExp(
        `^error: --out ${out}: cannot be written \\(EISDIR[^\\n]*\\)\\. Check that the path is still a writable file in a folder, or choose another path\\.\\n$`,
      ),
    );
    assert.deepEqual(readdirSync(`${out}.partial`), [], 'a folder of that name is not removed');
    assert.ok(!readdirSync(dir).includes('blocked.jsonl'));
  });
});
