/**
 * @module `memory-pool doctor`'s note on where a collection's dense vectors live: in RAM, or on disk (Qdrant's
 * `on_disk`, which the embedded store honours: docs/growth.md), with the PATCH that switches them.
 */
import { type DoctorCheck, pass } from './doctor-check.js';

/** Each dense vector's name ("" for the unnamed one) and whether its params ask for `on_disk`. */
function readPlacements(vectors: unknown): [string, boolean][] {
  if (typeof vectors !== 'object' || vectors === null) return [];
  const record = vectors as Record<string, unknown>;
  const onDisk = (params: unknown) =>
    typeof params === 'object' && params !== null && (params as { on_disk?: unknown }).on_disk === true;
  if ('size' in record) return [['', onDisk(record)]];
  return Object.entries(record).map(([name, params]) => [name, onDisk(params)]);
}

/** A pass line saying which of `collection`'s dense vectors are on disk and which in RAM; undefined without any. */
export function describeVectorPlacement(
  bot: string,
  collection: string,
  vectors: unknown,
): DoctorCheck | undefined {
  const placements = readPlacements(vectors);
  if (placements.length === 0) return undefined;
  const label = (name: string) => (name === '' ? 'the unnamed vector' : `"${name}"`);
  const where = placements.map(([name, disk]) => `${label(name)} ${disk ? 'on disk' : 'in RAM'}`).join(', ');
  // One PATCH turning every vector the other way round: what an operator would run to switch.
  const body = JSON.stringify({
    vectors: Object.fromEntries(placements.map(([name, disk]) => [name, { on_disk: !disk }])),
  });
  return pass(
    `bot ${bot}: vectors of ${collection}`,
    `${where} (to switch: PATCH /collections/${collection} with ${body}; docs/growth.md "Vectors on disk")`,
  );
}
