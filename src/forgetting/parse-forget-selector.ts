/** @module Turns a `POST /forget` body into exactly one selector, or a 400 that says which fields clash. */

import { ValidationError } from '../errors/memory-pool-error.js';
import type { StoredPointId } from '../store/point-store.js';
import type { ForgetRequest } from '../wire/forget-request.js';
import type { ForgetSelector } from './forget-selector.js';

/** A journal selector, or the explicit request for SillyTavern's unsourced points: all, or some by id. */
export type ParsedForget =
  | { readonly kind: 'journal'; readonly selector: ForgetSelector }
  | { readonly kind: 'unsourced' }
  | { readonly kind: 'unsourced-points'; readonly pointIds: readonly StoredPointId[] }
  /** A person's every account (docs/people.md); SillyTavern's points naming their persona only when asked. */
  | { readonly kind: 'person'; readonly personId: string; readonly includeUnsourced: boolean };

const SELECTOR_FIELDS = [
  'message_ids',
  'source',
  'discord_user_id',
  'user_id',
  'channel_id',
  'guild_id',
  'point_ids',
  'person',
] as const;

export function parseForgetSelector(request: ForgetRequest): ParsedForget {
  const named = SELECTOR_FIELDS.filter((field) => request[field] !== undefined);
  // `message_ids` with a `source` names those ids in that one source only (the other sources keep theirs).
  const idsInOneSource =
    named.length === 2 && request.message_ids !== undefined && typeof request.source === 'string';
  if (idsInOneSource) {
    return {
      kind: 'journal',
      selector: { kind: 'message_ids', messageIds: request.message_ids!, source: request.source! },
    };
  }
  if (named.length !== 1) {
    throw new ValidationError(
      named[1] ?? '(body)',
      named.length === 0
        ? `name what to forget with exactly one of: ${SELECTOR_FIELDS.join(', ')}`
        : `name exactly one selector per forget, got ${named.join(' and ')}; send one request per selector (only message_ids may be narrowed by a source)`,
    );
  }
  if (request.point_ids !== undefined) {
    if (request.include_unsourced !== true) {
      throw new ValidationError(
        'include_unsourced',
        'point_ids names points without a source (written by SillyTavern); confirm with "include_unsourced": true',
      );
    }
    return { kind: 'unsourced-points', pointIds: request.point_ids };
  }
  if (request.person !== undefined) {
    return { kind: 'person', personId: request.person, includeUnsourced: request.include_unsourced === true };
  }
  if (request.include_unsourced !== undefined && request.source !== null) {
    throw new ValidationError(
      'include_unsourced',
      'include_unsourced: only valid with "source": null, "point_ids" or "person" (the points SillyTavern wrote, which have no source)',
    );
  }
  if (request.source === null) {
    if (request.include_unsourced !== true) {
      throw new ValidationError(
        'source',
        'source: null names the points without a source (written by SillyTavern); confirm with "include_unsourced": true',
      );
    }
    return { kind: 'unsourced' };
  }
  if (request.message_ids)
    return { kind: 'journal', selector: { kind: 'message_ids', messageIds: request.message_ids } };
  if (request.source) return { kind: 'journal', selector: { kind: 'source', source: request.source } };
  const userId = request.discord_user_id ?? request.user_id;
  if (userId) return { kind: 'journal', selector: { kind: 'user', userId } };
  if (request.channel_id)
    return { kind: 'journal', selector: { kind: 'channel', channelId: request.channel_id } };
  return { kind: 'journal', selector: { kind: 'guild', guildId: request.guild_id! } };
}
