/** @module The timeline's filter form; applying it rewrites the URL, so the view can be bookmarked. */
import { formatCount } from './format.js';
import type { PersonChoice } from './people-choices.js';
import type { SourceCount } from './source-counts.js';
import type { Filter } from './url-state.js';

const TEXT_FIELDS = [
  ['speaker', 'Speaker'],
  ['channel_id', 'Channel id'],
  ['guild_id', 'Guild id'],
] as const;

/**
 * The source: typed, with the bot's sources and their memories offered as suggestions. A text box, not a list:
 * points whose source the counts do not know (written straight into the store) are still found by typing it.
 */
function SourceField(props: { value: string | undefined; sources: readonly SourceCount[] | null }) {
  const { value, sources } = props;
  return (
    <label class="field">
      Source
      <input
        name="source"
        value={value ?? ''}
        list="source-choices"
        placeholder="any source"
        autocomplete="off"
      />
      {sources !== null && (
        <datalist id="source-choices">
          {sources.map((s) => (
            <option key={s.source} value={s.source}>
              {s.source} ({formatCount(s.memories, 'memory', 'memories')})
            </option>
          ))}
        </datalist>
      )}
    </label>
  );
}

/**
 * A person of the bot: the points where they speak (their one name on every linked account, and their
 * persona's SillyTavern points), as `/retrieve { person }` selects them. A person no longer listed (unlinked
 * since the URL was made) stays selectable by id, so the filter shown is the filter applied.
 */
function PersonField(props: { value: string | undefined; people: readonly PersonChoice[] }) {
  const { value, people } = props;
  const listed = value === undefined || people.some((p) => p.id === value);
  return (
    <label class="field">
      Person
      <select name="person" value={value ?? ''}>
        <option value="">anyone</option>
        {people.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
        {!listed && <option value={value}>{`not a person of this bot (${value})`}</option>}
      </select>
    </label>
  );
}

export function FilterBar(props: {
  filter: Filter;
  sources: readonly SourceCount[] | null;
  /** The bot's people (admin keys), else null: no person filter is offered. */
  people: readonly PersonChoice[] | null;
  onApply: (filter: Filter) => void;
}) {
  const { filter } = props;
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next: Filter = {};
    for (const [key, value] of form.entries()) {
      if (typeof value !== 'string' || value.trim() === '') continue;
      // A source is matched exactly, spaces at either end included (a payload value may have them).
      next[key as keyof Filter] = key === 'source' ? value : value.trim();
    }
    props.onApply(next);
  };
  // Everything but the search text sits in a fold, open when one of its fields is set.
  const narrowing = Object.keys(filter).filter((key) => key !== 'text').length;
  // Keyed by the filter, so Clear and back/forward reset the fields.
  return (
    <form class="filters" onSubmit={onSubmit} key={JSON.stringify(filter)} aria-label="Filter memories">
      <div class="search-row">
        <label class="field">
          <span>
            Search text <kbd>/</kbd>
          </span>
          <input
            id="search"
            name="text"
            type="search"
            value={filter.text ?? ''}
            placeholder="words in the memory"
          />
        </label>
        <div class="actions">
          <button type="submit" class="primary">
            Apply
          </button>
          <button type="button" onClick={() => props.onApply({})}>
            Clear
          </button>
        </div>
      </div>
      <details class="more-filters" open={narrowing > 0}>
        <summary>More filters{narrowing > 0 ? ` (${narrowing} set)` : ''}</summary>
        <div class="filter-grid">
          <SourceField value={filter.source} sources={props.sources} />
          {props.people !== null && (props.people.length > 0 || filter.person !== undefined) && (
            <PersonField value={filter.person} people={props.people} />
          )}
          {TEXT_FIELDS.map(([name, label]) => (
            <label class="field" key={name}>
              {label}
              <input name={name} value={filter[name] ?? ''} />
            </label>
          ))}
          <label class="field">
            Written by
            <select name="kind" value={filter.kind ?? ''}>
              <option value="">anyone</option>
              <option value="memory-pool">memory-pool</option>
              <option value="sillytavern">SillyTavern</option>
            </select>
          </label>
          <label class="field">
            DMs
            <select name="dm" value={filter.dm ?? ''}>
              <option value="">with DMs</option>
              <option value="only">DMs only</option>
              <option value="exclude">no DMs</option>
            </select>
          </label>
          <label class="field">
            Date
            <select name="undated" value={filter.undated ?? ''}>
              <option value="">dated and undated</option>
              <option value="exclude">dated only</option>
              <option value="only">undated only</option>
            </select>
          </label>
          <label class="field">
            From
            <input name="from" type="date" value={filter.from ?? ''} />
          </label>
          <label class="field">
            To
            <input name="to" type="date" value={filter.to ?? ''} />
          </label>
        </div>
      </details>
    </form>
  );
}
