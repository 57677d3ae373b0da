/**
 * @module Finds the shell blocks README.md and docs/ mark as runnable: a ```sh block right after a line
 * `<!-- runnable: NAME [needs=postgres] [expect="text"] -->`. The docs test runs them as a user would.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listDocFiles, REPO_ROOT } from './read-markdown.js';

/** One marked block: where it is, what it needs, what its output must show. */
export interface RunnableBlock {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly code: string;
  /** Services the block needs besides a memory-pool instance, e.g. `postgres` (its own recipe starts the rest). */
  readonly needs: readonly string[];
  /** Text the block's output must contain. */
  readonly expect: string | undefined;
}

const MARKER = /^<!--\s*runnable:\s*(\S+)(.*?)-->\s*$/;

/** Every runnable block, page by page in the docs map's order (README first), each page's in document order. */
export function readRunnableBlocks(): RunnableBlock[] {
  return listDocFiles().flatMap((file) => {
    const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
    const blocks: RunnableBlock[] = [];
    lines.forEach((text, index) => {
      const marker = MARKER.exec(text);
      if (marker === null) return;
      if (lines[index + 1] !== '```sh') throw new Error(`${file}:${index + 1}: a runnable marker must sit right above a \`\`\`sh block`);
      const end = lines.findIndex((line, at) => at > index + 1 && line === '```');
      const options = marker[2] ?? '';
      blocks.push({
        file,
        line: index + 1,
        name: marker[1]!,
        code: lines.slice(index + 2, end).join('\n'),
        needs: /needs=(\S+)/.exec(options)?.[1]?.split(',') ?? [],
        expect: /expect="([^"]*)"/.exec(options)?.[1],
      });
    });
    return blocks;
  });
}
