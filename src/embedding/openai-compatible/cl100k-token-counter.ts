/**
 * @module Token counts for OpenAI-compatible endpoints, with js-tiktoken's cl100k_base: the encoding of
 * OpenAI's embedding models (text-embedding-3-*, ada-002), so the count is exact for them. Its ranks ship
 * inside the package: nothing is downloaded.
 */
import { createRequire } from 'node:module';
import type { Tiktoken, TiktokenBPE } from 'js-tiktoken/lite';

const require = createRequire(import.meta.url);
let encoding: Tiktoken | undefined;

/** Loads the ranks on first use (~0.5 s, ~1 MB), so a service whose texts never need counting never pays it. */
function loadEncoding(): Tiktoken {
  const { Tiktoken: Encoding } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  // The CommonJS build exports the ranks themselves, not a `default` wrapper.
  const ranks = require('js-tiktoken/ranks/cl100k_base') as TiktokenBPE;
  return new Encoding(ranks);
}

/** How many cl100k_base tokens `text` is. */
export function countCl100kTokens(text: string): number {
  encoding ??= loadEncoding();
  return encoding.encode(text).length;
}
