/** @module Builds a small PNG holding character-card JSON in tEXt chunks, as SillyTavern exports them. */
import { deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  // The reader does not check CRCs; a zero CRC keeps this builder small.
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
}

/** A 1×1 PNG with `chara` (V2) and/or `ccv3` (V3) card JSON. */
export function cardPng(cards: { chara?: unknown; ccv3?: unknown }): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const text = Object.entries(cards).map(([keyword, card]) =>
    chunk(
      'tEXt',
      Buffer.from(`${keyword}\0${Buffer.from(JSON.stringify(card)).toString('base64')}`, 'latin1'),
    ),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...text,
    chunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
