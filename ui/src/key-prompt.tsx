/** @module Asks once for an API key; it is kept in this tab's sessionStorage only (gone when the tab closes). */
import { useState } from 'preact/hooks';
import { storeKey } from './api.js';

export function KeyPrompt(props: { problem: string | null; onKey: () => void }) {
  const [key, setKey] = useState('');
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (!key.trim()) return;
    storeKey(key.trim());
    setKey('');
    props.onKey();
  };
  return (
    <main class="key-prompt">
      <h1>memory-pool</h1>
      <form onSubmit={onSubmit}>
        <label class="field">
          API key
          <input
            type="password"
            autocomplete="off"
            autofocus
            value={key}
            onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          />
        </label>
        {props.problem && (
          <p class="error" role="alert">
            {props.problem}
          </p>
        )}
        <p class="note">
          The key is kept for this tab only and sent with each request; the page shows only what it may do.
        </p>
        <button type="submit" class="primary">
          Open
        </button>
      </form>
    </main>
  );
}
