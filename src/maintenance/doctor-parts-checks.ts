/**
 * @module `memory-pool doctor`'s check for parts collections left behind by a deleted collection: they hold
 * the text of memories someone deleted. Doctor only reads; serve deletes them when it starts or meets the gap.
 */
import type { MessageJournal } from '../journal/message-journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { findOrphanParts } from '../parts/drop-orphan-parts.js';
import type { PointStore } from '../store/point-store.js';
import { type DoctorCheck, fail, pass } from './doctor-check.js';

const NAME = 'parts of deleted collections';

/**
 * No `<collection>__parts` outlives its collection. `storeUrl` is where a client can reach the store
 * (undefined when doctor opened the embedded store itself: then only serve's start-up is offered).
 */
export async function checkOrphanParts(
  store: Pick<PointStore, 'listCollections' | 'describeCollection'>,
  journal: Pick<MessageJournal, 'routes'>,
  storeUrl: string | undefined,
): Promise<DoctorCheck> {
  const orphans = (await findOrphanParts(store, journal)).map(partsCollectionName);
  if (orphans.length === 0) return pass(NAME, 'none: every parts collection has its collection');
  const serve = 'Start `memory-pool serve`: it deletes them when it starts.';
  const deletes = orphans.map((name) => `curl -X DELETE ${storeUrl}/collections/${name}`).join('; ');
  return fail(
    NAME,
    `${orphans.join(', ')} still hold the text of memories whose collection was deleted`,
    storeUrl === undefined
      ? serve
      : `${serve} Or delete them now: ${deletes} (with an api-key header if the store has a key).`,
  );
}
