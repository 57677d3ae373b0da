/** @module The collection a reembed builds: named after the bot's collection and the new model, so a rerun finds it. */
import { createHash } from 'node:crypto';

/**
 * `<collection>__m<8 hex of model@dimensions>`, e.g. `mem_mythos__m3f2a91c0`. The `__` keeps it out of
 * st-qdrant-memory's names (it collapses runs of `_`); the hash keeps two models apart.
 */
export function reembedTargetName(collection: string, model: string, dimensions: number): string {
  const hash = createHash('sha256').update(`${model}@${dimensions}`).digest('hex').slice(0, 8);
  return `${collection}__m${hash}`;
}
