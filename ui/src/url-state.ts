/** @module The view and its filters live in the page's URL (a view can be bookmarked); the key never does. */

export type View = 'timeline' | 'ask' | 'health' | 'people';

/** The timeline filter, exactly the query parameters of `GET /bots/{bot}/points`. */
export const FILTER_KEYS = [
  'source',
  'kind',
  'speaker',
  'text',
  'channel_id',
  'guild_id',
  'dm',
  'undated',
  'from',
  'to',
  'person',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filter = Partial<Record<FilterKey, string>>;

export interface UrlState {
  readonly bot: string | undefined;
  readonly view: View;
  readonly filter: Filter;
}

export function readUrlState(): UrlState {
  const params = new URLSearchParams(location.search);
  const view = params.get('view');
  const filter: Filter = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filter[key] = value;
  }
  return {
    bot: params.get('bot') ?? undefined,
    view: view === 'ask' || view === 'health' || view === 'people' ? view : 'timeline',
    filter,
  };
}

export function writeUrlState(state: UrlState): void {
  const params = new URLSearchParams();
  if (state.bot) params.set('bot', state.bot);
  if (state.view !== 'timeline') params.set('view', state.view);
  for (const key of FILTER_KEYS) {
    const value = state.filter[key];
    if (value) params.set(key, value);
  }
  const search = params.toString();
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
}

/** The filter as a query string for the API (`limit` and `cursor` are added by the caller). */
export function filterQuery(filter: Filter): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filter[key];
    if (value) params.set(key, value);
  }
  return params;
}

export const hasFilter = (filter: Filter): boolean => FILTER_KEYS.some((key) => Boolean(filter[key]));
