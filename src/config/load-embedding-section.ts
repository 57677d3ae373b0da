/**
 * @module An `embedding:` section on its own, for `memory-pool reembed --to FILE`: read from a file (as
 * written, for the journal, and validated), or parsed again from the journal by serve. The MEMORY_POOL_*
 * variables that set the current model are left out, so they do not override this one; `${VAR}` works.
 */
import { resolve } from 'node:path';
import type { EmbeddingConfig } from './config-types.js';
import { loadConfigSource } from './load-config.js';
import { readConfigSource } from './read-config-file.js';

/** The section validated, and as written (JSON, `${VAR}` unexpanded, so no secret is in it). */
export interface EmbeddingSection {
  readonly embedding: EmbeddingConfig;
  readonly written: string;
}

/**
 * Reads `file`'s `embedding:` section (undefined: ./memory-pool.yaml if present, else the defaults); throws
 * the config's own errors, naming the file.
 */
export function loadEmbeddingFile(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): EmbeddingSection {
  const cwd = process.cwd();
  const source = readConfigSource(file, cwd);
  const written = JSON.stringify(source.raw.embedding ?? {}, (_key, value: unknown) =>
    // YAML integers are read as bigints (exact Discord ids); an embedding section's numbers are small.
    typeof value === 'bigint' ? Number(value) : value,
  );
  return { embedding: parseEmbeddingSection(written, source.label, env), written };
}

/** Parses a section recorded by loadEmbeddingFile with this process's environment. */
export function parseEmbeddingSection(
  written: string,
  label: string,
  env: NodeJS.ProcessEnv = process.env,
): EmbeddingConfig {
  const own = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('MEMORY_POOL_')));
  const cwd = resolve(process.cwd());
  const raw = { embedding: JSON.parse(written) as unknown };
  return loadConfigSource({ label, baseDir: cwd, raw }, own, cwd).embedding;
}
