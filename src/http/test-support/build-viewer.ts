/** @module Builds dist/ui from the current ui/ sources, as `npm run build` does, for tests that serve the page. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export function buildViewer(): void {
  const built = spawnSync(process.execPath, ['scripts/build-ui.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the viewer did not build: ${built.stderr}`);
}
