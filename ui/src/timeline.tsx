/**
 * @module A bot's memories, newest first, grouped by day: pages of `GET /bots/{bot}/points` loaded as the
 * end of the list scrolls into view (or with the button), so only what was seen is in the page.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TimelinePageResponse, TimelinePoint, WhoamiResponse } from '../../src/wire/viewer.js';
import { botPath, getJson } from './api.js';
import { ConfirmForget } from './confirm-forget.js';
import { ErrorAlert } from './error-alert.js';
import { FilterBar } from './filter-bar.js';
import { type ForgetPlan, type ForgetTotals, planForgetMatching, planForgetPoint } from './forget-plans.js';
import { formatCount, pointDay, pointDayKey } from './format.js';
import { MemoryCard } from './memory-card.js';
import { usePeopleChoices } from './people-choices.js';
import { PointDetail } from './point-detail.js';
import { PointEditor } from './point-editor.js';
import { can, canEditPoint, canForgetPoint } from './session.js';
import { useSourceCounts } from './source-counts.js';
import { type Filter, filterQuery, hasFilter } from './url-state.js';

const PAGE = 50;

function groupByDay(points: readonly TimelinePoint[]): [string, TimelinePoint[]][] {
  const groups = new Map<string, TimelinePoint[]>();
  for (const point of points) {
    const key = pointDayKey(point);
    groups.set(key, [...(groups.get(key) ?? []), point]);
  }
  return [...groups];
}

export function Timeline(props: {
  bot: string;
  who: WhoamiResponse;
  filter: Filter;
  onFilter: (f: Filter) => void;
}) {
  const { bot, who, filter } = props;
  const [points, setPoints] = useState<TimelinePoint[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [order, setOrder] = useState<TimelinePageResponse['order']>('newest-first');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<TimelinePoint | null>(null);
  const [viewing, setViewing] = useState<TimelinePoint | null>(null);
  const [plan, setPlan] = useState<ForgetPlan | null>(null);
  const [reloads, setReloads] = useState(0);
  const [forgets, setForgets] = useState(0);
  const sources = useSourceCounts(bot, who, forgets);
  const people = usePeopleChoices(bot, who);
  const generation = useRef(0);
  const sentinel = useRef<HTMLDivElement>(null);
  const query = filterQuery(filter).toString();

  const load = async (from: string | null) => {
    const mine = generation.current;
    setLoading(true);
    setError(null);
    try {
      const params = new URLSearchParams(query);
      params.set('limit', String(PAGE));
      if (from) params.set('cursor', from);
      const page = await getJson<TimelinePageResponse>(`${botPath(bot, 'points')}?${params.toString()}`);
      if (mine !== generation.current) return;
      setPoints((before) => (from ? [...before, ...page.points] : [...page.points]));
      setCursor(page.next_cursor);
      setTotal(page.total);
      setOrder(page.order);
    } catch (caught) {
      if (mine === generation.current) setError((caught as Error).message);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  };

  // A new bot, filter or reload starts over.
  useEffect(() => {
    generation.current += 1;
    setPoints([]);
    setCursor(null);
    setTotal(null);
    void load(null);
  }, [bot, query, reloads]);

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !cursor || loading) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void load(cursor);
    });
    observer.observe(target);
    return () => observer.disconnect();
  });

  const guard = async (making: () => Promise<ForgetPlan>) => {
    try {
      setPlan(await making());
    } catch (caught) {
      setError((caught as Error).message);
    }
  };

  // The page follows a forget at once, while its result is still shown: when exactly the one memory went, its
  // card and the count go here; anything else is read again: a bulk forget, a rewritten memory, or one
  // SillyTavern memory whose messages the journal also held (their chunks in other sources go too).
  const forgotten = (done: ForgetPlan, totals: ForgetTotals) => {
    setForgets((n) => n + 1);
    if (done.pointId !== undefined && totals.points_deleted === 1 && totals.points_rewritten === 0) {
      setPoints((before) => before.filter((point) => point.id !== done.pointId));
      setTotal((before) => (before === null ? before : Math.max(0, before - 1)));
    } else setReloads((n) => n + 1);
  };

  const moveFocus = (from: EventTarget | null, step: number) => {
    const cards = [...document.querySelectorAll<HTMLElement>('article.memory')];
    const next = cards[cards.indexOf(from as HTMLElement) + step];
    next?.focus();
    if (!next && step > 0 && cursor) void load(cursor);
  };

  // SillyTavern's points are forgotten only with an admin key: other keys are not offered a bulk forget of them.
  const bulk =
    can(who, 'forget') &&
    hasFilter(filter) &&
    (total ?? 0) > 0 &&
    (filter.kind !== 'sillytavern' || can(who, 'admin'));

  return (
    <section aria-label="Timeline">
      <FilterBar filter={filter} sources={sources} people={people} onApply={props.onFilter} />
      <div class="summary">
        <p role="status" aria-live="polite">
          {total === null
            ? 'Loading…'
            : `${formatCount(total, 'memory', 'memories')}${hasFilter(filter) ? ' match' : ''}`}
        </p>
        {bulk && (
          <button type="button" class="danger" onClick={() => guard(() => planForgetMatching(bot, filter))}>
            Forget all matching…
          </button>
        )}
      </div>
      <ErrorAlert error={error} />
      {order === 'storage' && (total ?? 0) > 0 && (
        <p class="note" role="note">
          Shown in storage order, not newest first: this collection has no timestamp index yet (SillyTavern
          may have just recreated it). memory-pool asks for one when it next writes here or restarts.
        </p>
      )}
      {total === 0 && !loading && (
        <p class="empty">
          {hasFilter(filter)
            ? 'No memory matches this filter.'
            : 'No memories yet. They appear here once a conversation is saved and its first chunk is written.'}
        </p>
      )}
      <section class="memories" aria-busy={loading} aria-label="Memories, newest first">
        {groupByDay(points).map(([day, group]) => (
          <section class="day" key={day} aria-label={pointDay(group[0]!)}>
            <h2>{pointDay(group[0]!)}</h2>
            {day === 'undated' && (
              <p class="note">
                Written without a timestamp (by another SillyTavern extension, an older writer, or by hand),
                so they come after every dated memory.
              </p>
            )}
            {group.map((point) => (
              <MemoryCard
                key={String(point.id)}
                point={point}
                onFocusMove={(step) => moveFocus(document.activeElement, step)}
                actions={{
                  ...(canEditPoint(who, point)
                    ? { onOpen: () => setEditing(point) }
                    : { onOpen: () => setViewing(point), readOnly: true }),
                  ...(canForgetPoint(who, point)
                    ? { onForget: () => guard(() => planForgetPoint(bot, point)) }
                    : {}),
                }}
              />
            ))}
          </section>
        ))}
      </section>
      <div ref={sentinel} class="more">
        {cursor && (
          <button type="button" onClick={() => load(cursor)} disabled={loading}>
            {loading ? 'Loading…' : 'Load older memories'}
          </button>
        )}
        {!cursor && points.length > 0 && <p class="note">That is everything.</p>}
      </div>
      {editing && (
        <PointEditor
          bot={bot}
          point={editing}
          who={who}
          onForget={(next) => {
            setEditing(null);
            setPlan(next);
          }}
          onClose={(changed) => {
            setEditing(null);
            if (!changed) return;
            setReloads((n) => n + 1);
            // memory-pool's edits are rebuilt by the chunk writer moments later: look again then.
            setTimeout(() => setReloads((n) => n + 1), 1500);
          }}
        />
      )}
      {viewing && <PointDetail bot={bot} point={viewing} onClose={() => setViewing(null)} />}
      {plan && (
        <ConfirmForget
          plan={plan}
          onForgotten={(totals) => forgotten(plan, totals)}
          onClose={() => setPlan(null)}
        />
      )}
    </section>
  );
}
