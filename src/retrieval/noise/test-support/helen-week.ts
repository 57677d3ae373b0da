/**
 * @module A conversation big enough for the noise cut to apply (16 messages over 8 topics), and questions about
 * what it never mentions: shared by the tests of every face that passes `noise_cut` (HTTP, MCP).
 */

const DAY = Date.UTC(2026, 4, 7, 9);
/** Helen's week: a dog, a move, baking, a garden; never a submarine, a saxophone or a dentist. */
const LINES = [
  'We adopted a greyhound last weekend, her name is Pixel.',
  'Pixel the greyhound sleeps on the sofa all day long.',
  'Big news: we are moving to Lisbon in June for my new job.',
  'I baked sourdough bread this morning and it came out well.',
  'The tomatoes in the garden are finally turning red.',
  'My sister visited on Sunday and we watched a film together.',
  'Work was busy, the new project starts next month.',
  'I went running by the river before breakfast.',
];

/** The `/save` messages: each of Helen's lines and the bot's answer to it. */
export const HELEN_MESSAGES = LINES.flatMap((text, i) => [
  { speaker_kind: 'user', text, message_id: `u${i}`, ts: DAY + i * 120_000, speaker_name: 'Helen' },
  {
    speaker_kind: 'self',
    text: `That is lovely to hear, Helen. Tell me more about it (${i + 1}).`,
    message_id: `s${i}`,
    ts: DAY + i * 120_000 + 60_000,
  },
]);

/** Questions about Helen that her messages never answer: the cut leaves them nothing. */
export const HELEN_NEVER_DISCUSSED = [
  'What did Helen say about her submarine trip?',
  'When did Helen start learning the saxophone?',
  'Why did Helen go to the dentist?',
];

/** Questions her messages answer, with the message that does. */
export const HELEN_REAL = [
  { question: 'What is the name of the greyhound Helen adopted?', evidence: 'u0' },
  { question: 'Where is Helen moving for her new job?', evidence: 'u2' },
];

/**
 * The bot's recall settings for these tests: the hashing embedder scores by shared words, so its cosines are not
 * USE-lite's and the floor is its own; `scoreThreshold` 0 so `limit` fills when nothing is cut.
 */
export const HELEN_RETRIEVE = { limit: 5, scoreThreshold: 0, scope: 'global' as const };
