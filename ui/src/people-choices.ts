/**
 * @module The bot's people, for the timeline's person filter: read from `GET /bots/{bot}/people`, which only an
 * admin key may read (the owner's list of who is who), so other keys are not offered the filter.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PeopleResponse } from '../../src/wire/people.js';
import type { WhoamiResponse } from '../../src/wire/viewer.js';
import { botPath, getJson } from './api.js';
import { can } from './session.js';

/** One person as the filter offers them. */
export interface PersonChoice {
  readonly id: string;
  readonly name: string;
}

/** The bot's people by name; null while unknown, for a key that may not list them, or when the read failed. */
export function usePeopleChoices(bot: string, who: WhoamiResponse): PersonChoice[] | null {
  // Kept with the bot they were read for, so another bot's people are never offered.
  const [read, setRead] = useState<{ bot: string; people: PersonChoice[] | null } | null>(null);
  const allowed = can(who, 'admin');
  useEffect(() => {
    if (!allowed) return;
    let current = true;
    getJson<PeopleResponse>(botPath(bot, 'people')).then(
      (answer) =>
        current &&
        setRead({
          bot,
          people: answer.people
            .map((p) => ({ id: p.id, name: p.name }))
            .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
        }),
      () => current && setRead({ bot, people: null }),
    );
    return () => {
      current = false;
    };
  }, [bot, allowed]);
  return allowed && read?.bot === bot ? read.people : null;
}
