/**
 * @module The capabilities the operations call, bound once to the store, journal, guards and writer: recall
 * with the query embedder of the collection's model, forgetting that gives way to the writer, and the
 * viewer's backend, whose edits embed with the model recorded for the collection.
 */
import { forgetMemories } from '../forgetting/forget-memories.js';
import type { ChunkWriter } from '../ingest/chunk-writer.js';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../logging/logger.js';
import { dropStalePartsOf } from '../parts/drop-stale-parts.js';
import type { PartsGuard } from '../parts/parts-guard.js';
import type { PartsIndex } from '../parts/parts-index.js';
import type { PeopleNamesFor } from '../people/people-names.js';
import { readPersonDms } from '../people/read-person-dms.js';
import type { PersonSpeakerNames } from '../retrieval/person-speaker-filter.js';
import { retrieveMemories } from '../retrieval/retrieve-memories.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { MemoryStore } from '../store/memory-store.js';
import { createViewerBackend } from '../viewer/viewer-backend.js';
import type { BotCollections } from './bot-collections.js';
import type { MemoryCapabilities } from './operations/memory-capabilities.js';

export interface CapabilityParts {
  readonly store: MemoryStore;
  readonly journal: Journal;
  readonly collections: BotCollections;
  readonly guard: CollectionGuard;
  readonly partsGuard: PartsGuard;
  readonly parts: PartsIndex;
  readonly writer: ChunkWriter;
  readonly logger: Logger;
  readonly recallDeadlineMs?: number;
  /** The people names the chunk writer uses (one cache for both). */
  readonly peopleNames?: PeopleNamesFor;
}

export function assembleCapabilities(parts: CapabilityParts): MemoryCapabilities {
  const { store, journal, collections, guard, partsGuard, writer, logger } = parts;
  // A person speaks under their one name, and in SillyTavern's points under their personas' names: recall by
  // person and the viewer's person filter select the same points.
  const personSpeakerNames: PersonSpeakerNames = async (botName, id) => {
    const person = await journal.people.get(botName, id);
    if (person === undefined) return undefined;
    const personas = person.accounts.filter((a) => a.kind === 'persona').map((a) => a.value);
    return [person.name, ...personas];
  };
  return {
    retrieve: async (bot, request, signal, asker) =>
      retrieveMemories(
        {
          store,
          embedder: await collections.queryEmbedderFor(bot.collection),
          guard,
          partsGuard,
          logger,
          // Chunks another client deleted (with their collection, created again) leave their parts behind.
          onChunksMissing: (collection, chunkIds) =>
            void dropStalePartsOf(store, journal, collection, chunkIds).catch((error: unknown) =>
              logger.warn(
                { collection, err: error },
                'could not delete the parts of chunks no longer stored',
              ),
            ),
          forgottenIds: (botName, ids) => journal.forgetting.forgottenAmong(botName, ids),
          chunkMessages: (chunkId) => journal.chunks.chunkMessages(chunkId),
          ...(parts.peopleNames === undefined ? {} : { peopleNames: parts.peopleNames }),
          // Read each time, not cached: a DM's privacy must follow an unlink at once.
          personDms: (botName, account) => readPersonDms(journal, botName, account),
          personSpeakerNames,
          ...(parts.recallDeadlineMs === undefined ? {} : { deadlineMs: parts.recallDeadlineMs }),
        },
        bot,
        request,
        signal,
        asker,
      ),
    forget: (bot, request, permissions) =>
      forgetMemories(
        {
          journal,
          store,
          parts: parts.parts,
          runExclusive: (task) => writer.runExclusive(task),
          wakeWriter: () => writer.wake(),
        },
        bot,
        request,
        permissions,
      ),
    viewerBackend: createViewerBackend({
      store,
      journal,
      embedderFor: (collection) => collections.embedderFor(collection),
      guard,
      personSpeakerNames,
    }),
  };
}
