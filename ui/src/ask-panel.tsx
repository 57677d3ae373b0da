/**
 * @module "What would it remember about …": the exact hits and block `POST /retrieve` gives an interface for
 * that query and scope, each hit's score and (with explain) the signals and messages that ranked it.
 */
import { useState } from 'preact/hooks';
import type { RetrieveHit, RetrieveResponse, SignalExplanation } from '../../src/wire/retrieve-request.js';
import { postJson } from './api.js';
import { ErrorAlert } from './error-alert.js';
import { formatCount, pointDay } from './format.js';
import { ChunkText, SourceBadges } from './memory-card.js';

const SIGNALS = [
  ['chunk_dense', 'whole memory, by meaning'],
  ['part_dense', 'two messages, by meaning'],
  ['part_lexical', 'two messages, by words (BM25)'],
] as const;

function Explain(props: { hit: RetrieveHit }) {
  const explain = props.hit.explain;
  if (!explain) return null;
  return (
    <details class="explain">
      <summary>
        Why it ranked: {explain.mode} recall, fused {explain.fused.toFixed(4)}
      </summary>
      <ul>
        {SIGNALS.map(([name, label]) => {
          const signal: SignalExplanation | undefined = explain.signals[name];
          return (
            <li key={name}>
              {label}:{' '}
              {signal ? `#${signal.rank}, score ${signal.score.toFixed(3)}` : 'not among the candidates'}
            </li>
          );
        })}
      </ul>
      {explain.parts.length > 0 && (
        <p>
          Matching messages:{' '}
          {explain.parts.map((part) => (
            <code key={part.id}>{part.message_ids}</code>
          ))}
        </p>
      )}
    </details>
  );
}

/** Which time window the question was understood to name, if any. */
function TimeWindowLine(props: { answer: RetrieveResponse }) {
  const understood = props.answer.time_window;
  if (!understood) return null;
  const at = (iso: string) => new Date(iso).toLocaleString(undefined, { timeZone: understood.tz });
  return (
    <p class="time-window">
      Time understood: “{understood.text}” (from the {understood.source}) = {at(understood.from)} to {at(understood.to)},{' '}
      {understood.tz}; {understood.use === 'narrow' ? 'only memories from then' : 'memories from then rank higher'}
    </p>
  );
}

export function AskPanel(props: { bot: string }) {
  const [answer, setAnswer] = useState<RetrieveResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const request = {
      bot: props.bot,
      query_text: text('query'),
      explain: true,
      // "yesterday" in the question is the asker's: their clock and their browser's zone.
      now: Date.now(),
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...(text('limit') ? { limit: Number(text('limit')) } : {}),
      ...(text('guild_id') ? { guild_id: text('guild_id') } : {}),
      ...(text('channel_id') ? { channel_id: text('channel_id') } : {}),
      ...(form.get('is_dm') ? { is_dm: true } : {}),
      ...(text('scope') ? { scope: text('scope') } : {}),
      ...(text('sources')
        ? {
            sources: text('sources')
              .split(',')
              .map((source) => source.trim()),
          }
        : {}),
    };
    setAsking(true);
    setError(null);
    try {
      setAnswer(await postJson<RetrieveResponse>('/retrieve', request));
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setAsking(false);
    }
  };

  return (
    <section aria-label="Ask">
      <form class="filters ask" onSubmit={onSubmit}>
        <label class="field wide">
          What would it remember about…
          <input id="search" name="query" required placeholder="Where does Anna live?" />
        </label>
        <label class="field">
          Hits
          <input name="limit" type="number" min={1} max={50} placeholder="bot default" />
        </label>
        <label class="field">
          Guild id
          <input name="guild_id" />
        </label>
        <label class="field">
          Channel id
          <input name="channel_id" />
        </label>
        <label class="field">
          Only sources
          <input name="sources" placeholder="discord, hermes" />
        </label>
        <label class="field">
          Scope
          {/* Any key may narrow recall this way; the service never widens it past the bot's own scope. */}
          <select name="scope">
            <option value="">the bot's own</option>
            <option value="dm-private">dm-private</option>
            <option value="guild">guild</option>
            <option value="channel">channel</option>
          </select>
        </label>
        <label class="field check">
          <input name="is_dm" type="checkbox" /> asked in a DM
        </label>
        <div class="actions">
          <button type="submit" class="primary" disabled={asking}>
            {asking ? 'Asking…' : 'Ask'}
          </button>
        </div>
      </form>
      <ErrorAlert error={error} />
      {answer && (
        <div class="answer">
          <p role="status">
            {formatCount(answer.hits.length, 'hit')} · the block is{' '}
            <strong class="block-size">{formatCount(answer.formatted.length, 'character')}</strong>
          </p>
          <TimeWindowLine answer={answer} />
          <ol class="hits">
            {answer.hits.map((hit) => (
              <li key={String(hit.id)} class="memory hit">
                <header>
                  <span class="score">{Math.round(hit.score * 100)}%</span>
                  <span>{pointDay(hit)}</span>
                  <span class="speakers">{hit.speakers}</span>
                  <SourceBadges point={hit} />
                </header>
                <ChunkText text={hit.text} speakers={hit.speakers} />
                <Explain hit={hit} />
              </li>
            ))}
          </ol>
          <h2>The block /retrieve would inject</h2>
          <pre class="block">{answer.formatted || '(empty: nothing is remembered for this query)'}</pre>
        </div>
      )}
    </section>
  );
}
