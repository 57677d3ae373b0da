/**
 * @module Every forget the page offers, planned before it runs: the confirmation shows the exact counts the
 * plan was built from, and running it goes through `POST /forget` (tombstones, audit log, the key's limits).
 */
import { readHeldMessageIds } from '../../src/chunking/held-message-ids.js';
import type { ForgetResponse } from '../../src/wire/forget-request.js';
import type { ForgetSelectionResponse, PointDetailResponse, TimelinePoint } from '../../src/wire/viewer.js';
import { botPath, getJson, postJson } from './api.js';
import { type Filter, filterQuery } from './url-state.js';

/** What the service reported, summed over the requests a plan sent. */
export type ForgetTotals = { -readonly [K in keyof Omit<ForgetResponse, 'ok'>]: number };

export interface ForgetPlan {
  readonly title: string;
  /** Points that go (deleted, or rewritten without a forgotten message when `rewrites`). */
  readonly points: number;
  readonly messages: number;
  /** Matching points that stay (SillyTavern's, or sources the key may not forget). */
  readonly kept: number;
  /** True when the point stays, rewritten without the message. */
  readonly rewrites: boolean;
  /** The one timeline point the plan deletes, when it forgets a single memory (the page drops its card). */
  readonly pointId?: string | number;
  run(): Promise<ForgetTotals>;
}

/** `/forget` takes at most 1000 ids per request. */
const BATCH = 1000;

const zero = (): ForgetTotals => ({
  points_deleted: 0,
  points_rewritten: 0,
  pending_dropped: 0,
  messages_forgotten: 0,
});

/** Message ids by the source that wrote them. */
type IdsBySource = Readonly<Record<string, readonly string[]>>;

/**
 * Forgets each id in its own source only (`message_ids` with `source`), so an id another interface happened
 * to use for its own message is not forgotten with it: what goes is exactly what the confirmation counted.
 */
async function forgetIds(bot: string, idsBySource: IdsBySource): Promise<ForgetTotals> {
  const totals = zero();
  for (const [source, ids] of Object.entries(idsBySource)) {
    for (let i = 0; i < ids.length; i += BATCH) {
      const answer = await postJson<ForgetResponse>('/forget', {
        bot,
        source,
        message_ids: ids.slice(i, i + BATCH),
      });
      addTotals(totals, answer);
    }
  }
  return totals;
}

function addTotals(totals: ForgetTotals, answer: ForgetResponse): void {
  totals.points_deleted += answer.points_deleted;
  totals.points_rewritten += answer.points_rewritten;
  totals.pending_dropped += answer.pending_dropped;
  totals.messages_forgotten += answer.messages_forgotten;
}

function groupBySource(messages: readonly { message_id: string; source: string }[]): IdsBySource {
  const groups: Record<string, string[]> = {};
  for (const m of messages) {
    groups[m.source] = [...(groups[m.source] ?? []), m.message_id];
  }
  return groups;
}

/** SillyTavern's points by id (admin), in batches: `/forget`'s `point_ids` with `include_unsourced`. */
async function forgetUnsourcedPoints(
  bot: string,
  pointIds: readonly (string | number)[],
): Promise<ForgetTotals> {
  const totals = zero();
  for (let i = 0; i < pointIds.length; i += BATCH) {
    addTotals(
      totals,
      await postJson<ForgetResponse>('/forget', {
        bot,
        point_ids: pointIds.slice(i, i + BATCH),
        include_unsourced: true,
      }),
    );
  }
  return totals;
}

/** One memory: every message the journal holds for it, or (SillyTavern's, admin) the point by its id. */
export async function planForgetPoint(bot: string, point: TimelinePoint): Promise<ForgetPlan> {
  if (point.source === undefined) {
    return {
      title: 'Forget this SillyTavern memory?',
      points: 1,
      // Counted as the service counts what a forgotten SillyTavern point held.
      messages: readHeldMessageIds(point.messageIds).length,
      kept: 0,
      rewrites: false,
      pointId: point.id,
      run: () => forgetUnsourcedPoints(bot, [point.id]),
    };
  }
  const detail = await getJson<PointDetailResponse>(
    botPath(bot, `points/${encodeURIComponent(String(point.id))}`),
  );
  const ids = detail.messages.map((m) => m.message_id);
  const idsBySource = groupBySource(detail.messages);
  return {
    title: 'Forget this memory?',
    points: ids.length > 0 ? 1 : 0,
    messages: ids.length,
    kept: ids.length > 0 ? 0 : 1,
    rewrites: false,
    pointId: point.id,
    run: () => forgetIds(bot, idsBySource),
  };
}

/** One message of a memory: the memory is rewritten without it, or goes when it was the last. */
export function planForgetMessage(
  bot: string,
  message: { message_id: string; source: string },
  messagesInPoint: number,
): ForgetPlan {
  return {
    title: 'Forget this message?',
    points: 1,
    messages: 1,
    kept: 0,
    rewrites: messagesInPoint > 1,
    run: () => forgetIds(bot, groupBySource([message])),
  };
}

/** Everything the filter matches that the key may forget (SillyTavern's points too, for an admin key). */
export async function planForgetMatching(bot: string, filter: Filter): Promise<ForgetPlan> {
  const selection = await getJson<ForgetSelectionResponse>(
    `${botPath(bot, 'forget-selection')}?${filterQuery(filter).toString()}`,
  );
  return {
    title: 'Forget everything matching this filter?',
    points: selection.points,
    messages: selection.messages,
    kept: selection.kept,
    rewrites: false,
    run: async () => {
      const totals = await forgetIds(bot, selection.message_ids_by_source);
      const unsourced = await forgetUnsourcedPoints(bot, selection.unsourced_point_ids);
      for (const key of Object.keys(totals) as (keyof ForgetTotals)[]) totals[key] += unsourced[key];
      return totals;
    },
  };
}
