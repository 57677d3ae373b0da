/**
 * @module The one store type the service talks to: the points port, its hybrid (parts) reads and writes,
 * the viewer's ordered scroll and the keyword indexes recall filters by. The Qdrant adapter and the in-memory test store both provide all of it;
 * what a shared collection's hybrid layout needs beyond it (StHybridStore) stays inside src/store/.
 */
import type { HybridPointStore } from './hybrid-point-store.js';
import type { PointStore } from './point-store.js';
import type { TimelineStore } from './timeline-store.js';

export type MemoryStore = PointStore & HybridPointStore & TimelineStore;
