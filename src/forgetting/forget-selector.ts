/** @module What a forget names (exactly one selector per request), and the journal messages it reaches. */
import type { ForgetTarget, MessageMatch } from '../journal/forget-journal.js';
import type { Journal } from '../journal/journal.js';

/** What a forget names; exactly one of these per request (`message_ids` optionally within one source). */
export type ForgetSelector =
  | {
      readonly kind: 'message_ids';
      readonly messageIds: readonly string[];
      /** Only these ids in this source; without it, the ids in every source the key may reach. */
      readonly source?: string;
    }
  | { readonly kind: 'source'; readonly source: string }
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'channel'; readonly channelId: string }
  | { readonly kind: 'guild'; readonly guildId: string };

/**
 * The messages the selector names, as forget targets: `{ id }` for `message_ids` (every source the key may
 * reach, and tombstoned even if never seen), the journal's `{ source, id }` rows for the others. Limited to
 * `sources` when given (a source-scoped key).
 */
export function findForgetTargets(
  journal: Journal,
  bot: string,
  selector: ForgetSelector,
  sources: readonly string[] | undefined,
): Promise<ForgetTarget[]> {
  if (selector.kind === 'message_ids') {
    const { source } = selector;
    return Promise.resolve(selector.messageIds.map((id) => (source === undefined ? { id } : { id, source })));
  }
  return journal.forgetting.findMatching(bot, toMessageMatch(selector), sources);
}

function toMessageMatch(selector: Exclude<ForgetSelector, { kind: 'message_ids' }>): MessageMatch {
  switch (selector.kind) {
    case 'source':
      return { field: 'source', value: selector.source };
    case 'user':
      return { field: 'userId', value: selector.userId };
    case 'channel':
      return { field: 'channelId', value: selector.channelId };
    case 'guild':
      return { field: 'guildId', value: selector.guildId };
  }
}
