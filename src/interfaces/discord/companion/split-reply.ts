/** @module Splits a reply into Discord messages of at most 2,000 characters, at a line or word break when it can. */

/** Discord's limit for one message's content. */
export const DISCORD_MESSAGE_LIMIT = 2000;

export function splitReply(text: string, limit = DISCORD_MESSAGE_LIMIT): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    // Prefer a paragraph, then a line, then a word; never a cut inside a surrogate pair.
    let cut = Math.max(window.lastIndexOf('\n\n'), window.lastIndexOf('\n'));
    if (cut < limit / 2) cut = window.lastIndexOf(' ');
    if (cut < limit / 2) cut = /[\uD800-\uDBFF]/.test(window.charAt(limit - 1)) ? limit - 1 : limit;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') parts.push(rest);
  return parts;
}
