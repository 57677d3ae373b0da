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

/**
 * BPE is about quadratic in the length of one unbroken run (16k characters of base64 took minutes), so runs
 * longer than this are counted in slices. A cut can only stop merges, so the sum never undercounts.
 */
const MAX_RUN_CHARS = 256;
const LONG_RUN = new RegExp(`(\\S{${MAX_RUN_CHARS + 1},})`, 'u');
const RUN_SLICE = new RegExp(`[^]{1,${MAX_RUN_CHARS}}`, 'gu');

/** How many cl100k_base tokens `text` is (at most a few more for runs of over 256 non-blank characters). */
export function countCl100kTokens(text: string): number {
  encoding ??= loadEncoding();
  const coder = encoding;
  // Special-token strings such as `<|endoftext|>` are counted as the plain text an endpoint receives; by
  // default js-tiktoken throws on them, which would make one message unsaveable.
  const count = (part: string) => coder.encode(part, [], []).length;
  let total = 0;
  text.split(LONG_RUN).forEach((part, index) => {
    if (index % 2 === 0) total += part === '' ? 0 : count(part);
    else for (const slice of part.match(RUN_SLICE) ?? []) total += count(slice);
  });
  return total;
}

/**
 * A cl100k counter for a window of `maxTokens` that tokenizes only when it matters: every cl100k token is at
 * least one UTF-8 byte, so a text of at most `maxTokens` bytes fits, and its byte length (an upper bound of
 * its tokens) is returned without running the BPE. Chat messages are far shorter than the 8,191-token window
 * of OpenAI's models: counting them exactly took 29 % of serve's CPU during a remote import.
 */
export function createCl100kWindowCounter(maxTokens: number): (text: string) => number {
  return (text) => {
    // Three bytes per UTF-16 unit at most: short texts skip even the byte count.
    if (text.length * 3 <= maxTokens) return Buffer.byteLength(text, 'utf8');
    const bytes = Buffer.byteLength(text, 'utf8');
    return bytes <= maxTokens ? bytes : countCl100kTokens(text);
  };
}
