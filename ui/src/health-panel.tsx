/** @module Health at a glance: readiness, what the bot's memory holds, the backlog, the model, and (admin) the forget log. */
import { useEffect, useState } from 'preact/hooks';
import type { ForgetLogResponse } from '../../src/wire/forget-request.js';
import type { ReadyResponse } from '../../src/wire/service-status.js';
import type { BotStatsResponse } from '../../src/wire/stats-response.js';
import type { WhoamiResponse } from '../../src/wire/viewer.js';
import { botPath, getJson } from './api.js';
import { formatAge, formatCount } from './format.js';
import { can } from './session.js';

function useJson<T>(path: string | null): { data: T | null; error: string | null } {
  const [state, setState] = useState<{ data: T | null; error: string | null }>({ data: null, error: null });
  useEffect(() => {
    if (path === null) return;
    getJson<T>(path).then(
      (data) => setState({ data, error: null }),
      (caught: Error) => setState({ data: null, error: caught.message }),
    );
  }, [path]);
  return state;
}

export function HealthPanel(props: { bot: string; who: WhoamiResponse }) {
  const ready = useJson<ReadyResponse>('/ready');
  const stats = useJson<BotStatsResponse>(botPath(props.bot, 'stats'));
  const admin = can(props.who, 'admin');
  const log = useJson<ForgetLogResponse>(
    admin ? `/admin/forget-log?bot=${encodeURIComponent(props.bot)}&limit=20` : null,
  );
  const s = stats.data;
  return (
    <section aria-label="Health" class="health">
      <div class="tiles">
        <div class="tile">
          <h2>Service</h2>
          {ready.error && <p class="error">{ready.error}</p>}
          {ready.data && (
            <ul>
              {Object.entries(ready.data.checks).map(([name, check]) => (
                <li key={name}>
                  <span class={check.ok ? 'ok' : 'bad'}>{check.ok ? '● ready' : '● failing'}</span> {name}
                  {check.error ? `: ${check.error}` : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
        {stats.error && <p class="error">{stats.error}</p>}
        {s && (
          <>
            <div class="tile">
              <h2>Memories</h2>
              <p class="big">{s.points.total.toLocaleString('en-GB')}</p>
              <ul>
                <li>memory-pool: {(s.points.total - s.points.unsourced).toLocaleString('en-GB')}</li>
                <li>SillyTavern: {s.points.unsourced.toLocaleString('en-GB')}</li>
                {Object.entries(s.points.bySource ?? {}).map(([source, n]) => (
                  <li key={source}>
                    {source}: {n.toLocaleString('en-GB')}
                  </li>
                ))}
              </ul>
            </div>
            <div class="tile">
              <h2>Backlog</h2>
              <p class="big">{formatCount(s.messages.pending, 'message')}</p>
              <p>
                waiting to be stored
                {s.messages.oldestPendingAt
                  ? `, the oldest for ${formatAge(Date.now() - s.messages.oldestPendingAt)}`
                  : ''}
              </p>
              <p>
                chunks: {s.chunks.stored.toLocaleString('en-GB')} stored,{' '}
                {s.chunks.planned.toLocaleString('en-GB')} to write
              </p>
            </div>
            <div class="tile">
              <h2>Journal</h2>
              <ul>
                {Object.entries(s.messages.bySource).map(([source, n]) => (
                  <li key={source}>
                    {source}: {formatCount(n, 'message')}
                  </li>
                ))}
                <li>forgotten (tombstones): {s.messages.forgotten.toLocaleString('en-GB')}</li>
              </ul>
              <p>
                Model: <code>{s.model ?? 'none recorded yet'}</code> · collection <code>{s.collection}</code>
              </p>
            </div>
          </>
        )}
      </div>
      {admin && (
        <div class="tile wide">
          <h2>Forget audit log</h2>
          {log.error && <p class="error">{log.error}</p>}
          {log.data && log.data.entries.length === 0 && <p>Nothing has been forgotten.</p>}
          {log.data && log.data.entries.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>{new Date(entry.at).toISOString().replace('T', ' ').slice(0, 16)}</td>
                    <td>{entry.actor}</td>
                    <td>
                      <code>{JSON.stringify(entry.selector).slice(0, 80)}</code>
                    </td>
                    <td>
                      {formatCount(entry.result.messages_forgotten, 'message')}, {entry.result.points_deleted}{' '}
                      deleted, {entry.result.points_rewritten} rewritten
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </section>
  );
}
