/**
 * @module Reads an import file as text, refusing what is not UTF-8 instead of storing U+FFFD in place of its
 * characters: a Latin-1 (or other legacy) file is named with its first bad line and the fix; a UTF-16 file
 * with a byte-order mark, as Windows tools write it, is decoded.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { refuseInput } from './imported-history.js';

const CONVERT =
  'Convert it to UTF-8 (e.g. `iconv -f latin1 -t utf-8 in.json > out.json`, or save it as UTF-8) and import it again';
const LF = 0x0a;

/** The file's text: UTF-8 (a UTF-8 byte-order mark is dropped), or UTF-16 LE/BE marked by its byte-order mark. */
export function readTextFile(file: string): string {
  const bytes = readFileSync(file);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(file, bytes, 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(file, bytes, 'utf-16be');
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (!isUtf8(body)) {
    throw refuseInput(
      `${file}:${firstBadLine(body)}`,
      'not UTF-8 text (Latin-1 or another legacy encoding)',
      CONVERT,
    );
  }
  // NUL never appears in a text export; many of them mean UTF-16 written without its byte-order mark.
  if (body.subarray(0, 4096).includes(0)) {
    throw refuseInput(file, 'UTF-16 text without a byte-order mark (or not text at all)', CONVERT);
  }
  return body.toString('utf8');
}

function decodeUtf16(file: string, bytes: Buffer, encoding: 'utf-16le' | 'utf-16be'): string {
  try {
    // The decoder drops the byte-order mark itself.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw refuseInput(file, `not valid ${encoding.toUpperCase()} text, though it starts like it`, CONVERT);
  }
}

/** The number (from 1) of the first line that is not UTF-8: a newline byte never occurs inside a UTF-8 character. */
function firstBadLine(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  while (start <= bytes.length) {
    const end = bytes.indexOf(LF, start);
    const stop = end === -1 ? bytes.length : end;
    if (!isUtf8(bytes.subarray(start, stop))) return line;
    if (end === -1) break;
    line += 1;
    start = end + 1;
  }
  return line;
}
