/**
 * @module The `dmWith` a restored point keeps: a person's value is dropped, an account's kept.
 */
import { DM_WITH_KEY } from '../chunking/dm-with.js';

/**
 * `payload` without a `dmWith` naming a person. Such a value says whom the account was linked to on the day of the
 * export; the journal it is restored into may link it to someone else, and when restore runs into a collection
 * whose chunk rows this journal already holds for another collection (`--into-collection` beside the bot's own),
 * no rename pass ever rewrites the restored point. With no `dmWith`, a DM recall decides by the journal's channels,
 * as for a point written before the field existed: slower, never wider. An `account:` value is kept: it names the
 * account itself, which a link change never makes wrong. The rename pass restore requests sets it again.
 */
export function dropPersonDmWith(payload: Record<string, unknown>): Record<string, unknown> {
  const value = payload[DM_WITH_KEY];
  if (typeof value !== 'string' || !value.startsWith('person:')) return payload;
  const { [DM_WITH_KEY]: _dropped, ...rest } = payload;
  return rest;
}
