/** @module The viewer: who is calling, which bot, which view; the URL holds the view and its filters. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { WhoamiResponse } from '../../src/wire/viewer.js';
import { ApiError, dropKey, getJson, readKey } from './api.js';
import { AskPanel } from './ask-panel.js';
import { HealthPanel } from './health-panel.js';
import { KeyPrompt } from './key-prompt.js';
import { PeoplePanel } from './people-panel.js';
import { can } from './session.js';
import { Timeline } from './timeline.js';
import { readUrlState, type UrlState, type View, writeUrlState } from './url-state.js';

const VIEWS: readonly [View, string][] = [
  ['timeline', 'Timeline'],
  ['ask', 'Ask'],
  ['health', 'Health'],
  // Linking is the owner's (admin keys): the view is offered only to them.
  ['people', 'People'],
];

/** `/` jumps to the search field of the view, unless the person is typing. */
function useSlashToSearch() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = (event.target as HTMLElement).closest('input, textarea, select, dialog');
      if (event.key !== '/' || typing) return;
      const search = document.getElementById('search');
      if (search) {
        event.preventDefault();
        search.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

function ThemeToggle() {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? '');
  useEffect(() => {
    if (theme) document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
  }, [theme]);
  const dark = theme === 'dark' || (!theme && matchMedia('(prefers-color-scheme: dark)').matches);
  return (
    <button type="button" onClick={() => setTheme(dark ? 'light' : 'dark')} aria-label="Switch light or dark">
      {dark ? '☀ Light' : '☾ Dark'}
    </button>
  );
}

export function App() {
  const [who, setWho] = useState<WhoamiResponse | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [needKey, setNeedKey] = useState(false);
  const [state, setState] = useState<UrlState>(readUrlState);
  useSlashToSearch();

  const connect = useCallback(() => {
    getJson<WhoamiResponse>('/whoami').then(
      (answer) => {
        setWho(answer);
        setNeedKey(false);
        setProblem(null);
      },
      (caught: Error) => {
        if (caught instanceof ApiError && caught.status === 401) {
          if (readKey()) setProblem('That key was not accepted.');
          dropKey();
          setNeedKey(true);
        } else setProblem(caught.message);
      },
    );
  }, []);
  useEffect(connect, []);
  useEffect(() => writeUrlState(state), [state]);

  if (needKey) return <KeyPrompt problem={problem} onKey={connect} />;
  if (!who) return <p class={problem ? 'error' : 'loading'}>{problem ?? 'Connecting…'}</p>;

  const bot = who.bots.some((b) => b.name === state.bot) ? state.bot! : who.bots[0]?.name;
  return (
    <>
      <header class="top">
        <h1>memory-pool</h1>
        <label class="field inline">
          Bot
          <select
            value={bot}
            onChange={(e) => setState({ ...state, bot: (e.target as HTMLSelectElement).value, filter: {} })}
          >
            {who.bots.map((b) => (
              <option key={b.name} value={b.name}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <nav aria-label="Views">
          {VIEWS.filter(([view]) => view !== 'people' || can(who, 'admin')).map(([view, label]) => (
            <button
              type="button"
              key={view}
              aria-current={state.view === view ? 'page' : undefined}
              onClick={() => setState({ ...state, view })}
            >
              {label}
            </button>
          ))}
        </nav>
        <span class="who">
          {who.key === null ? 'loopback, no key' : `key: ${who.key}`}
          {who.key !== null && (
            <button
              type="button"
              onClick={() => {
                dropKey();
                setWho(null);
                setNeedKey(true);
              }}
            >
              Sign out
            </button>
          )}
          <ThemeToggle />
        </span>
      </header>
      <main>
        {bot === undefined && <p class="empty">This key may not use any bot.</p>}
        {bot !== undefined && state.view === 'timeline' && (
          <Timeline
            bot={bot}
            who={who}
            filter={state.filter}
            onFilter={(filter) => setState({ ...state, filter })}
          />
        )}
        {bot !== undefined && state.view === 'ask' && <AskPanel bot={bot} />}
        {bot !== undefined && state.view === 'health' && <HealthPanel bot={bot} who={who} />}
        {bot !== undefined && state.view === 'people' && can(who, 'admin') && <PeoplePanel bot={bot} />}
      </main>
      <footer class="keys">
        Keys: <kbd>/</kbd> search · <kbd>↑</kbd>
        <kbd>↓</kbd> move · <kbd>Enter</kbd> edit · <kbd>Delete</kbd> forget · <kbd>Esc</kbd> close
      </footer>
    </>
  );
}
