/**
 * @module A question about what each of two or more people did ("What do Caroline and Melanie both enjoy?",
 * "What did Jon and Gina each buy?"), read as one question per person ("What do Caroline enjoy?", "What do
 * Melanie enjoy?"), so recall looks for each person's part of the answer on its own: asked whole, one person's
 * passages fill the first hits. Without "both" or "each", names joined by "and" often ask about one thing they
 * did together ("When did Jon and Gina decide to collaborate?"), which splitting loses: such questions are
 * asked whole (measured in docs/recall.md).
 */

/** Each joined name is searched for once; more would cost an embedding and three searches each. */
const MAX_PARTS = 4;
/**
 * A capitalized word (a name as people type one), then more of them after commas, then "and" or "&" and the
 * last one: "Jon and Gina", "Anna, Bob & Cleo". Lowercase words never match, so "salt and pepper" is no split.
 */
const NAME = String.raw`\p{Lu}[\p{L}\p{M}'’-]*`;
const JOINED = new RegExp(
  String.raw`(?<![\p{L}\p{M}'’-])(${NAME}(?:\s*,\s*${NAME})*)\s*,?\s+(?:and|&)\s+(${NAME})(?![\p{L}\p{M}'’-])`,
  'u',
);
/** Capitalized words that start a question or name no one: "Why and how", "I and Anna" are not two people. */
const NOT_NAMES: ReadonlySet<string> = new Set([
  'I',
  'What',
  'Who',
  'Whom',
  'Whose',
  'Which',
  'Where',
  'When',
  'Why',
  'How',
  'Did',
  'Do',
  'Does',
  'Is',
  'Are',
  'Was',
  'Were',
  'Can',
  'Could',
  'Would',
  'Should',
  'Will',
  'Has',
  'Have',
  'Had',
  'The',
]);
/** The words that ask about each person apart; taken out of each person's question, where they mislead. */
const EACH = /\s*\b(?:both|each)\b/giu;

/**
 * The question once per person it joins with "and" (the others' names and "both" / "each" taken out), in the
 * order named; undefined unless it joins two or more names and says "both" or "each": most questions are
 * asked whole.
 */
export function splitQuestion(text: string): string[] | undefined {
  if (text.search(EACH) < 0) return undefined;
  const match = JOINED.exec(text);
  if (match === null) return undefined;
  const names = [...match[1]!.split(/\s*,\s*/u), match[2]!];
  if (names.some((name) => NOT_NAMES.has(name) || name.length < 2)) return undefined;
  const unique = [...new Set(names)];
  if (unique.length < 2) return undefined;
  const before = text.slice(0, match.index);
  const after = text.slice(match.index + match[0].length);
  return unique.slice(0, MAX_PARTS).map((name) =>
    `${before}${name}${after}`
      .replace(EACH, '')
      .replace(/\s{2,}/gu, ' ')
      .trim(),
  );
}
