/**
 * @module The People panel's linking form: tick accounts seen but not linked, then make them a new person
 * (POST /bots/{bot}/people) or add them to someone already there (PATCH ... { add }).
 */
import { useState } from 'preact/hooks';
import type { WireAccount, WirePerson, WireSeenAccount } from '../../src/wire/people.js';
import { accountKey, describeAccount } from './describe-account.js';
import { formatAge } from './format.js';

export interface LinkRequest {
  readonly accounts: readonly WireAccount[];
  /** A new person's name, or the id of the person to add to. */
  readonly target: { readonly name: string } | { readonly id: string };
}

export function LinkAccountsForm(props: {
  unlinked: readonly WireSeenAccount[];
  people: readonly WirePerson[];
  onLink: (request: LinkRequest) => Promise<boolean>;
}) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [target, setTarget] = useState('new');
  const [name, setName] = useState('');
  const chosen = props.unlinked.filter((seen) => ticked.has(accountKey(seen.account)));
  const toggle = (key: string) => {
    const next = new Set(ticked);
    if (!next.delete(key)) next.add(key);
    setTicked(next);
  };
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const accounts = chosen.map((seen) => seen.account);
    const linked = await props.onLink({ accounts, target: target === 'new' ? { name } : { id: target } });
    if (linked) {
      setTicked(new Set());
      setName('');
    }
  };
  if (props.unlinked.length === 0) return <p class="empty">Every account seen is linked to a person.</p>;
  return (
    <form class="link-accounts" onSubmit={onSubmit}>
      <fieldset>
        <legend>Accounts seen, not linked</legend>
        <ul>
          {props.unlinked.map((seen) => {
            const key = accountKey(seen.account);
            return (
              <li key={key}>
                <label class="field check">
                  <input type="checkbox" checked={ticked.has(key)} onChange={() => toggle(key)} />
                  <strong>{describeAccount(seen.account)}</strong>
                  {seen.names.length > 0 && ` as ${seen.names.join(', ')}`} · {seen.sources.join(', ')} ·{' '}
                  {seen.messages} message{seen.messages === 1 ? '' : 's'}, last seen{' '}
                  {formatAge(Date.now() - Date.parse(seen.last_seen))} ago
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <label class="field inline">
        Link into
        <select value={target} onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}>
          <option value="new">a new person</option>
          {props.people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
        </select>
      </label>
      {target === 'new' && (
        <label class="field inline">
          Name
          <input
            value={name}
            maxLength={200}
            required
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
      )}
      <button type="submit" class="primary" disabled={chosen.length === 0}>
        Link {chosen.length} account{chosen.length === 1 ? '' : 's'}
      </button>
    </form>
  );
}
