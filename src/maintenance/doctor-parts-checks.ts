/**
 * @module `memory-pool doctor`'s check for parts collections left behind by a deleted collection: they hold
 * the text of memories someone deleted. Doctor only reads; serve deletes them when it starts or meets the gap.
 * A `x__parts` memory-pool never recorded as its own is only mentioned: it may be another app's.
 */
import type { Journal } from '../journal/journal.js';
import { findOrphanParts } from '../parts/drop-orphan-parts.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import type { PointStore } from '../store/point-store.js';
import { type DoctorCheck, fail, pass } from './doctor-check.js';

const NAME = 'parts of deleted collections';

/**
 * No `<collection>__parts` of memory-pool's outlives its collection. `storeUrl` is where a client can reach
 * the store (undefined when doctor opened the embedded store itself: then only serve's start-up is offered).
 * `keep` holds the bots' collections: never reported, whatever their name.
 */
export async function checkOrphanParts(
  store: Pick<PointStore, 'listCollections' | 'describeCollection'>,
  journal: Pick<Journal, 'routes' | 'partsIndexes' | 'collectionModel'>,
  storeUrl: string | undefined,
  keep: Iterable<string> = [],
): Promise<DoctorCheck> {
  const found = await findOrphanParts(store, journal, keep);
  const orphans = found.owned.map(partsCollectionName);
  const unknown =
    found.unknown.length === 0
      ? ''
      : ` (${found.unknown.join(', ')} ${found.unknown.length === 1 ? 'has' : 'have'} a parts name but ${found.unknown.length === 1 ? 'was' : 'were'} not written by this memory-pool: left alone)`;
  if (orphans.length === 0) return pass(NAME, `none: every parts collection has its collection${unknown}`);
  const serve = 'Start `memory-pool serve`: it deletes them when it starts.';
  const deletes = orphans.map((name) => `curl -X DELETE ${deleteUrl(storeUrl, name)}`).join('; ');
  return fail(
    NAME,
    `${orphans.join(', ')} still hold the text of memories whose collection was deleted${unknown}`,
    storeUrl === undefined
      ? serve
      : `${serve} Or delete them now: ${deletes} (with an api-key header if the store has a key).`,
  );
}

/** Encoded for the URL and single-quoted for the shell: `#`, `&` or `?` in a name never reach another collection. */
function deleteUrl(storeUrl: string | undefined, name: string): string {
  return `'${`${storeUrl}/collections/${encodeURIComponent(name)}`.replaceAll("'", "'\\''")}'`;
}
