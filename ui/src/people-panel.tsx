/**
 * @module The People panel (admin): who is who across interfaces. Lists people and the accounts seen but not
 * linked; links accounts into a person, renames, splits an account off, and unlinks a person (no message is
 * forgotten), all through `GET|POST|PATCH|DELETE /bots/{bot}/people` (docs/people.md).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { PeopleResponse, WireAccount, WirePerson } from '../../src/wire/people.js';
import { botPath, deleteJson, getJson, patchJson, postJson } from './api.js';
import { accountKey, describeAccount } from './describe-account.js';
import { ErrorAlert } from './error-alert.js';
import { LinkAccountsForm, type LinkRequest } from './link-accounts-form.js';

export function PeoplePanel(props: { bot: string }) {
  const [people, setPeople] = useState<PeopleResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const path = botPath(props.bot, 'people');
  const load = useCallback(() => {
    getJson<PeopleResponse>(path).then(setPeople, (caught: Error) => setError(caught.message));
  }, [path]);
  useEffect(load, [load]);

  /** Runs one change; on success says what was done and reloads, on failure shows the service's words. */
  const change = async (run: () => Promise<unknown>, said: string): Promise<boolean> => {
    try {
      await run();
      setError(null);
      setDone(said);
      load();
      return true;
    } catch (caught) {
      setDone('');
      setError((caught as Error).message);
      return false;
    }
  };
  const personPath = (id: string) => `${path}/${encodeURIComponent(id)}`;
  const link = ({ accounts, target }: LinkRequest) => {
    const n = `${accounts.length} account${accounts.length === 1 ? '' : 's'}`;
    return 'name' in target
      ? change(() => postJson(path, { name: target.name, accounts }), `Linked ${n} as ${target.name}.`)
      : change(() => patchJson(personPath(target.id), { add: accounts }), `Added ${n}.`);
  };

  return (
    <section aria-labelledby="people-title" class="people">
      <h2 id="people-title">People</h2>
      <p class="note">
        One person, one name across every interface: their messages are written under it, and forget-me and DM
        privacy follow them. Unlinking forgets nothing.
      </p>
      <ErrorAlert error={error} />
      <p role="status" class="ok">
        {done}
      </p>
      {people === null && !error && <p class="loading">Loading…</p>}
      {people !== null && (
        <>
          {people.people.length === 0 && <p class="empty">Nobody is linked yet.</p>}
          {people.people.map((person) => (
            <PersonCard
              key={person.id}
              person={person}
              onRename={(name) =>
                change(() => patchJson(personPath(person.id), { name }), `Renamed to ${name}.`)
              }
              onSplit={(account) =>
                change(
                  () => patchJson(personPath(person.id), { remove: [account] }),
                  `${describeAccount(account)} is no longer ${person.name}.`,
                )
              }
              onUnlink={() => change(() => deleteJson(personPath(person.id)), `${person.name} is unlinked.`)}
            />
          ))}
          <LinkAccountsForm unlinked={people.unlinked} people={people.people} onLink={link} />
        </>
      )}
    </section>
  );
}

function PersonCard(props: {
  person: WirePerson;
  onRename: (name: string) => Promise<boolean>;
  onSplit: (account: WireAccount) => Promise<boolean>;
  onUnlink: () => Promise<boolean>;
}) {
  const { person } = props;
  const [name, setName] = useState(person.name);
  useEffect(() => setName(person.name), [person.name]);
  const headingId = `person-${person.id}`;
  return (
    <article class="person tile" aria-labelledby={headingId}>
      <h3 id={headingId}>{person.name}</h3>
      <ul>
        {person.accounts.map((account) => (
          <li key={accountKey(account)}>
            {describeAccount(account)}{' '}
            <button
              type="button"
              aria-label={`Split off ${describeAccount(account)} from ${person.name}`}
              onClick={() => props.onSplit(account)}
            >
              Split off
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void props.onRename(name);
        }}
      >
        <label class="field inline">
          Name
          <input
            value={name}
            maxLength={200}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Rename</button>
        <button type="button" class="danger" onClick={() => props.onUnlink()}>
          Unlink {person.name}
        </button>
      </form>
    </article>
  );
}
