/** @module Whether collections memory-pool creates keep their vectors on disk: the embedded store's setting only. */
import type { MemoryPoolConfig } from './config-types.js';

/** `store.embedded.vectorsOnDisk`, off unless set; a real Qdrant is never asked (its operator decides). */
export function vectorsOnDiskOf(config: MemoryPoolConfig): boolean {
  return config.store.kind === 'embedded' && config.store.vectorsOnDisk === true;
}
