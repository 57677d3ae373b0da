/** @module `memory-pool qdrant`: runs the embedded Qdrant-compatible store alone. (Being written.) */
import type { Command } from 'commander';

/** Registers `memory-pool qdrant --data DIR --port P [--host H] [--api-key K]`. */
export function registerQdrantCommand(program: Command): void {
  program
    .command('qdrant')
    .description('Run the embedded Qdrant-compatible store alone (not yet implemented)');
}
