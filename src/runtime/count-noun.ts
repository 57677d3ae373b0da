/**
 * @module "1 message", "2 messages": the one way every message to a person writes a count with its noun, so
 * no command ever says "1 messages" (src/cli/plural-messages.test.ts holds the CLI and the data tools to it).
 */

/** `count` and its noun, singular for exactly 1; `plural` for a noun that does not just add "s". */
export function countNoun(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
