/**
 * @module Reads an import file as text, refusing what is not UTF-8 instead of storing U+FFFD in place of its
 * characters: a Latin-1 (or other legacy) file is named with its first bad line and the fix; a UTF-16 file
 * with a byte-order mark, as Windows tools write it, is decoded.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { refuseInput } from './imported-history.js';

/** The fix for a file in `encoding`: the iconv line that converts it (never latin1's for UTF-16: it garbles). */
const convert = (encoding: string) =>
  `Convert it to UTF-8 (e.g. \`iconv -f ${encoding} -t utf-8 in.json > out.json\`, or save it as UTF-8) and import it again`;
const LF = 0x0a;

/** The file's text: UTF-8 (a UTF-8 byte-order mark is dropped), or UTF-16 LE/BE marked by its byte-order mark. */
export function readTextFile(file: string): string {
  const text = decodeText(file, readFileSync(file));
  // An empty file is almost always the wrong one (an export cut short, a placeholder): say so, import nothing.
  if (text.trim() === '') {
    throw refuseInput(
      file,
      'is empty: it holds no messages',
      'Check that it is the export you meant to import',
    );
  }
  return text;
}

function decodeText(file: string, bytes: Buffer): string {
  // UTF-32's byte-order marks begin like UTF-16's: look for them first.
  if (startsWith(bytes, [0xff, 0xfe, 0, 0])) throw refuseInput(file, 'UTF-32 LE text', convert('utf-32le'));
  if (startsWith(bytes, [0, 0, 0xfe, 0xff])) throw refuseInput(file, 'UTF-32 BE text', convert('utf-32be'));
  if (startsWith(bytes, [0xff, 0xfe])) return decodeUtf16(file, bytes, 'utf-16le');
  if (startsWith(bytes, [0xfe, 0xff])) return decodeUtf16(file, bytes, 'utf-16be');
  const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  // NUL never appears in a text export; in UTF-16 every ASCII character (JSON's braces, quotes, keys) brings
  // one, whatever the script of the text: checked before UTF-8, which CJK in UTF-16 would fail as "Latin-1".
  const zero = body.subarray(0, 4096).indexOf(0);
  if (zero !== -1) {
    const order = zero % 2 === 1 ? 'utf-16le' : 'utf-16be';
    throw refuseInput(file, 'UTF-16 text without a byte-order mark (or not text at all)', convert(order));
  }
  if (!isUtf8(body)) {
    throw refuseInput(
      `${file}:${firstBadLine(body)}`,
      'not UTF-8 text (Latin-1 or another legacy encoding)',
      convert('latin1'),
    );
  }
  return body.toString('utf8');
}

const startsWith = (bytes: Buffer, prefix: readonly number[]) => prefix.every((byte, i) => bytes[i] === byte);

function decodeUtf16(file: string, bytes: Buffer, encoding: 'utf-16le' | 'utf-16be'): string {
  try {
    // The decoder drops the byte-order mark itself.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw refuseInput(
      file,
      `not valid ${encoding.toUpperCase()} text, though it starts like it`,
      convert(encoding),
    );
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
