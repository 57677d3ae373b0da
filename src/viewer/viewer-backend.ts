/**
 * @module What the memory viewer reads and changes beyond the published API: the timeline (an ordered
 * scroll, newest first), one point with its journal messages, the exact selection a bulk forget removes,
 * and the in-place edit of a SillyTavern point's text.
 */
import type { BotConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { NotFoundError, StoreError, ValidationError } from '../errors/memory-pool-error.js';
import type { ForgetPermissions } from '../auth/forget-permissions.js';
import { readHeldMessageIds } from '../chunking/held-message-ids.js';
import type { Journal } from '../journal/journal.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { StoredPointId } from '../store/point-store.js';
import { isUnsourcedPayload } from '../store/store-filters.js';
import type {
  ForgetSelectionResponse,
  PointDetailResponse,
  PointTextResponse,
  TimelinePageResponse,
} from '../wire/viewer.js';
import { decodeCursor, encodeCursor } from './timeline-cursor.js';
import { readPersonFilter, type PersonSpeakerNames } from '../retrieval/person-speaker-filter.js';
import { type TimelineFilter, toStoreFilter } from './timeline-filter.js';
import { readTimelinePage } from './timeline-pages.js';
import { toPointMessage, toTimelinePoint } from './to-timeline-point.js';
import type { MemoryStore } from '../store/memory-store.js';

export interface ViewerBackendDeps {
  readonly store: MemoryStore;
  readonly journal: Journal;
  /** The chunk embedder of the model recorded for a collection, which embeds an edited SillyTavern point. */
  embedderFor(collection: string): Promise<Embedder>;
  readonly guard: CollectionGuard;
  /** The names a person of the bot speaks under (as `/retrieve { person }` reads them), for the person filter. */
  readonly personSpeakerNames: PersonSpeakerNames;
}

export interface ViewerBackend {
  timeline(
    bot: BotConfig,
    filter: TimelineFilter,
    page: { limit: number; cursor?: string },
  ): Promise<TimelinePageResponse>;
  pointDetail(bot: BotConfig, id: StoredPointId): Promise<PointDetailResponse>;
  /** What the caller may forget (`permissions`: its sources, and whether SillyTavern's points too). */
  forgetSelection(
    bot: BotConfig,
    filter: TimelineFilter,
    permissions: Pick<ForgetPermissions, 'sources' | 'unsourced'>,
  ): Promise<ForgetSelectionResponse>;
  editPointText(bot: BotConfig, id: StoredPointId, text: string): Promise<PointTextResponse>;
}

/** A scroll page while walking every point of a selection. */
const SELECTION_PAGE = 1000;

export function createViewerBackend(deps: ViewerBackendDeps): ViewerBackend {
  const { store, journal } = deps;

  const readPoint = async (bot: BotConfig, id: StoredPointId) => {
    // A bot whose collection does not exist yet has no points: a 404, not the store's collection_missing.
    const exists = (await store.describeCollection(bot.collection)) !== undefined;
    const [record] = exists ? await store.retrievePoints(bot.collection, [id]) : [];
    if (record === undefined) {
      throw new NotFoundError('not_found', `id: no point "${id}" in ${bot.collection}`, 'id');
    }
    return record;
  };

  /** The filter with its person's speaker names read (a 400 naming `person` for one the bot does not have). */
  const withPersonSpeakers = async (bot: BotConfig, filter: TimelineFilter): Promise<TimelineFilter> => {
    // The timeline lists chunks, never parts, so the store's match on whole speaker lines is exact here.
    const match = await readPersonFilter(deps.personSpeakerNames, bot, filter.person);
    return match === undefined ? filter : { ...filter, personSpeakers: match.filter };
  };

  return {
    async timeline(bot, asked, page) {
      const filter = await withPersonSpeakers(bot, asked);
      const from = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
      const [read, total] = await Promise.all([
        readTimelinePage(store, bot.collection, filter, page.limit, from),
        store.countPoints(bot.collection, toStoreFilter(filter)),
      ]);
      return {
        points: read.records.map(toTimelinePoint),
        next_cursor: read.next === undefined ? null : encodeCursor(read.next),
        total,
        order: read.order,
      };
    },

    async pointDetail(bot, id) {
      const record = await readPoint(bot, id);
      const messages =
        typeof record.payload.source === 'string' ? await journal.chunks.chunkMessages(String(id)) : [];
      return { point: toTimelinePoint(record), messages: messages.map(toPointMessage) };
    },

    async forgetSelection(bot, asked, { sources, unsourced }) {
      const filter = await withPersonSpeakers(bot, asked);
      const unsourcedPointIds: StoredPointId[] = [];
      if ((await store.describeCollection(bot.collection)) === undefined) {
        return {
          points: 0,
          messages: 0,
          message_ids: [],
          message_ids_by_source: {},
          unsourced_point_ids: unsourcedPointIds,
          kept: 0,
        };
      }
      const storeFilter = toStoreFilter(filter);
      let points = 0;
      let kept = 0;
      const messageIds = new Set<string>();
      // What SillyTavern's points hold: `/forget` counts each point's messages, so these are counted per point.
      let unsourcedMessages = 0;
      const bySource = new Map<string, Set<string>>();
      let offset: StoredPointId | undefined;
      do {
        const page = await store.scrollPoints(bot.collection, {
          limit: SELECTION_PAGE,
          ...(storeFilter === undefined ? {} : { filter: storeFilter }),
          ...(offset === undefined ? {} : { offset }),
        });
        // One journal read per point of the page, sent together (no batched read of several chunks exists).
        const held = await Promise.all(
          page.points.map((record) => {
            const source = record.payload.source;
            const forgettable =
              typeof source === 'string' &&
              !(unsourced && isUnsourcedPayload(record.payload)) &&
              (sources === undefined || sources.includes(source));
            return forgettable ? journal.chunks.chunkMessages(String(record.id)) : [];
          }),
        );
        for (const [index, record] of page.points.entries()) {
          const source = record.payload.source;
          if (unsourced && isUnsourcedPayload(record.payload)) {
            points += 1;
            unsourcedPointIds.push(record.id);
            unsourcedMessages += readHeldMessageIds(record.payload.messageIds).length;
            continue;
          }
          const messages = held[index]!;
          if (messages.length === 0 || typeof source !== 'string') {
            kept += 1;
            continue;
          }
          points += 1;
          for (const message of messages) {
            messageIds.add(message.messageId);
            const ids = bySource.get(source) ?? new Set<string>();
            ids.add(message.messageId);
            bySource.set(source, ids);
          }
        }
        offset = page.nextOffset;
      } while (offset !== undefined);
      return {
        points,
        messages: messageIds.size + unsourcedMessages,
        message_ids: [...messageIds],
        message_ids_by_source: Object.fromEntries([...bySource].map(([source, ids]) => [source, [...ids]])),
        unsourced_point_ids: unsourcedPointIds,
        kept,
      };
    },

    async editPointText(bot, id, text) {
      const record = await readPoint(bot, id);
      if (typeof record.payload.source === 'string') {
        throw new ValidationError(
          'id',
          `id: point "${id}" was written by memory-pool; edit its messages with POST /save (same message_id, new text)`,
        );
      }
      const embedder = await deps.embedderFor(bot.collection);
      const [vector] = await embedder.embed([text]);
      await deps.guard.ensureCollection(bot.collection, embedder.model, vector!.length);
      const payload = { ...record.payload, text };
      const write = () =>
        store.upsertPoints(bot.collection, [{ id: record.id, vector: Array.from(vector!), payload }]);
      // A refused write may mean the fork upgraded the collection to its hybrid layout since the store last
      // read it: the store reads the layout again after a failure, so once more writes it in the new one.
      await write().catch((error: unknown) => {
        if (error instanceof StoreError && error.code === 'store_failed') return write();
        throw error;
      });
      // During a reembed (or from a request that began before its switch) the collection being built must
      // hold the edit too: a redaction made after its last pass would otherwise be undone by the switch.
      const follower = await journal.routes.followerOf(bot.collection);
      if (follower !== undefined && (await store.describeCollection(follower)) !== undefined) {
        const followerEmbedder = await deps.embedderFor(follower);
        const [followerVector] = await followerEmbedder.embed([text]);
        await store.upsertPoints(follower, [{ id: record.id, vector: Array.from(followerVector!), payload }]);
      }
      return { ok: true, point: toTimelinePoint({ id: record.id, payload }) };
    },
  };
}
