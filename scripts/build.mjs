// `npm run build` (also run by `npm ci`/`npm install` as `prepare`, and by `npm start`): compiles src/ into
// dist/ and bundles the viewer into dist/ui, each only as far as its sources changed. tsc is incremental
// (dist/.tsbuildinfo), so a start with nothing changed takes seconds instead of a full compile (~1 min on
// 2 cores); the viewer is bundled again only when a file under ui/ is newer than the bundle. It calls tsc
// and the bundler directly rather than through `npm run`, so npm's own start-up lines are not printed twice.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time (ms) of the files under `dir`, or 0 when it holds none. */
export function newestFileTime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestFileTime(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/** True when `output` is missing or older than the newest file under any of `sourceDirs`. */
export function isStale(output, sourceDirs) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sourceDirs.some((dir) => newestFileTime(dir) > built);
}

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  run([tsc, '-p', 'tsconfig.build.json']);
  // The bundle reads ui/ and the wire types and shared format it imports from src/.
  if (
    isStale(join(root, 'dist', 'ui', 'app.js'), [
      join(root, 'ui'),
      join(root, 'src', 'wire'),
      join(root, 'src', 'chunking'),
    ])
  ) {
    run([join(root, 'scripts', 'build-ui.mjs')]);
  }
}
