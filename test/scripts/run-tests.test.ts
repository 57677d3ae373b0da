/**
 * @module scripts/run-tests.mjs (`npm test`) on a folder of made-up test files: one summary over every
 * process, files sharing a process or kept alone by their source, and a file that crashes while loading
 * counted as a failure named after it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PASSING = `import { test } from 'node:test';\ntest('passes', () => {});\ntest('passes too', () => {});\n`;
/** Fails when another file shares its process: its first test sees that file's global. */
const ALONE = `import { before, test } from 'node:test';\nimport assert from 'node:assert/strict';
before(() => {});\ntest('alone in its process', () => assert.equal((globalThis as any).sharedMark, undefined));\n`;
const MARKING = `import { test } from 'node:test';\n(globalThis as any).sharedMark = 1;\ntest('marks', () => {});\n`;
const FAILING = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';
test('fails', () => assert.equal(1, 2));\n`;
const CRASHING = `throw new Error('broken at load');\n`;

/** Passes, then keeps its process alive, as a file whose failure leaves a pool open does. */
const HANGING = `import { test } from 'node:test';\ntest('passes, then hangs', () => { setInterval(() => {}, 1000); });\n`;

function runTests(cwd: string, extraEnv: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, MEMORY_POOL_TEST_POSTGRES_URL: '', ...extraEnv };
    execFile(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs')], { cwd, env }, (error, stdout) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, out: stdout }),
    );
  });
}

test('npm test adds up every process, groups what may share one, and fails a file that cannot load', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-run-tests-'));
  try {
    mkdirSync(join(dir, 'src'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const files = { a: PASSING, b: MARKING, c: ALONE, d: FAILING, e: CRASHING };
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, 'src', `${name}.test.ts`), source);
    const { code, out } = await runTests(dir);
    assert.equal(code, 1, out);
    // 2 + 1 + 1 + 1 tests, and the crashed file as one failed test; node's own summary lines close the run.
    assert.match(out, /^# tests 6\n# suites 0\n# pass 4\n# fail 2\n/m, out);
    assert.match(out, /^not ok \d+ - src\/e\.test\.ts$/m, 'the crashed file is named');
    assert.match(out, /^# .*src\/a\.test\.ts \+ src\/b\.test\.ts/m, 'the plain files shared a process');
    assert.match(out, /^ok \d+ - alone in its process$/m, 'the file with a top-level hook ran alone');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a test process that never ends is stopped at the limit and fails the run, named, instead of hanging it', {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-run-tests-'));
  try {
    mkdirSync(join(dir, 'src'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'src', 'a.test.ts'), PASSING);
    writeFileSync(join(dir, 'src', 'h.test.ts'), HANGING);
    const { code, out } = await runTests(dir, {
      MEMORY_POOL_TEST_PROCESS_LIMIT_MS: '4000',
      MEMORY_POOL_TEST_GROUPS: '0',
    });
    assert.equal(code, 1, out);
    assert.match(out, /^not ok \d+ - src\/h\.test\.ts$/m, 'the stopped file is named');
    assert.match(out, /^# fail 1$/m, out);
    assert.match(out, /stopped after 4 s, still running/, 'says why');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
