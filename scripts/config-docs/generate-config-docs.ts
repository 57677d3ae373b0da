/**
 * @module Writes docs/configuration.md from the config schema (`node --import tsx scripts/config-docs/generate-config-docs.ts`);
 * with `--check` it writes nothing and exits 1 when the page on disk differs from what the schema gives.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigurationPage } from './render-configuration-page.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const target = `${root}docs/configuration.md`;
const page = renderConfigurationPage(root);
if (process.argv.includes('--check')) {
  const same = readFileSync(target, 'utf8') === page;
  console.log(
    same
      ? 'docs/configuration.md is up to date'
      : 'docs/configuration.md differs from the schema: run this script without --check',
  );
  process.exit(same ? 0 : 1);
}
writeFileSync(target, page);
console.log(`wrote ${target}`);
