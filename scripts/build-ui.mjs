// Builds the memory viewer (ui/) into dist/ui: one script bundle and one style sheet, no CDN, no source
// maps shipped. Each file is written to a temporary name and renamed, so a test building at the same time
// never serves half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = process.argv[2] ?? join(root, 'dist', 'ui');

function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

mkdirSync(outDir, { recursive: true });
const result = await build({
  entryPoints: { app: join(root, 'ui', 'src', 'main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  write: false,
  outdir: outDir,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
for (const name of ['styles.css', 'index.html']) {
  writeAtomically(
    join(outDir, name === 'styles.css' ? 'app.css' : name),
    readFileSync(join(root, 'ui', name)),
  );
}
