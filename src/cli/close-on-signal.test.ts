/**
 * @module A stop signal while the offline model computes on ONNX Runtime ends the process with exit 0: a
 * worker terminated inside ORT's synchronous run aborts the whole process (SIGABRT, exit 134).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

/** Where onnxruntime-node has no binary (Intel macOS, musl), the service runs on TensorFlow.js: skip, not fail. */
const noOnnxRuntime = await import('onnxruntime-node').then(
  () => false,
  () => 'onnxruntime-node does not load on this platform (the offline model runs on TensorFlow.js)',
);

const here = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);

/**
 * The child embeds a backlog of long texts in jobs of 16 (each an ORT run of ~0.3 s, so a worker is almost
 * always inside one) on the process's shared pool, with serve's signal handling, and says when it is busy.
 */
const CHILD = `
import { closeOnSignal } from ${here('./close-on-signal.ts')};
import { OfflineEmbedder } from ${here('../embedding/offline/offline-embedder.ts')};
import { createLogger } from ${here('../logging/logger.ts')};
const embedder = new OfflineEmbedder({ workers: 2, batchSize: 16 });
closeOnSignal(createLogger({ level: 'silent' }), 'the test', async () => {});
await embedder.embed(['load the model', 'on both workers']);
const long = 'the harbour at dawn and the night train to Lisbon '.repeat(30);
void embedder.embed(Array.from({ length: 512 }, () => long)).catch(() => {});
setTimeout(() => console.log('busy ' + embedder.runtime), 400);
`;

test('SIGTERM while ONNX Runtime computes a backlog: the process exits 0, not SIGABRT', {
  skip: noOnnxRuntime,
}, async () => {
  // A file, not --input-type=module -e: workers inherit that flag, and the model worker's source is CommonJS.
  const dir = await mkdtemp(join(tmpdir(), 'close-on-signal-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'child.mjs');
  await writeFile(script, CHILD);
  // Several stops: before the fix most (not all) of them aborted.
  for (let attempt = 0; attempt < 3; attempt++) {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let stdout = '';
    for await (const chunk of child.stdout) {
      stdout += (chunk as Buffer).toString();
      if (stdout.includes('busy')) break;
    }
    assert.match(stdout, /busy onnxruntime/, `the child did not embed on ONNX Runtime: ${stdout} ${stderr}`);
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, stderr);
  }
});
