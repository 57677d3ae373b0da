/**
 * @module Temporal recall benchmark (issue 25): date-anchored questions built from LoCoMo's dated sessions.
 * Day questions ("What did we talk about on 8 May 2023?", "What did Caroline tell me on Monday, 8 May?") and
 * relative ones (`now` 1, 3 or 8 days after the session: "yesterday", "three days ago", "last week"): the share
 * of the turns returned within 10 turns that lie in the asked day or window. Topic + time: single-hop
 * questions whose evidence sits in one session, asked as they are and with the session's month appended:
 * evidence recall at 10 turns, and how much of the miss the month removes.
 * Run: node --import tsx bench/temporal-recall.bench.ts [--data FILE|DIR] [--conversations N] (docs/recall.md)
 */
import { existsSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RetrieveHit, RetrieveRequest } from '../src/wire/retrieve-request.js';
import { scoreAtBudget } from './recall/evidence-recall.js';
import { type LocomoConversation, type LocomoSession, loadLocomo } from './recall/locomo-dataset.js';
import { botName, drainBot, ingestConversation, startLocomoService } from './recall/locomo-service.js';

const BUDGET = 10;
const DAY_MS = 86_400_000;
const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
const WEEKDAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ');

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argValue = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const given = resolve(
  argValue('--data') ?? process.env.MEMORY_POOL_LOCOMO ?? join(repoRoot, '../shared/datasets/locomo-dev'),
);
const dataFile = existsSync(given) && statSync(given).isDirectory() ? join(given, 'locomo-dev.json') : given;
if (!existsSync(dataFile)) {
  console.log(`temporal recall benchmark skipped: no LoCoMo data at ${dataFile} (pass --data FILE|DIR).`);
  process.exit(0);
}
const conversations = loadLocomo(dataFile).slice(
  0,
  Number(argValue('--conversations') ?? Number.POSITIVE_INFINITY),
);

/** The UTC day [from, to) holding `ms` (LoCoMo's dates are read as UTC, and the bots' zone is UTC). */
const utcDay = (ms: number) => {
  const from = Math.floor(ms / DAY_MS) * DAY_MS;
  return { from, to: from + DAY_MS };
};
const dateWords = (ms: number) => {
  const d = new Date(ms);
  return {
    day: d.getUTCDate(),
    month: MONTHS[d.getUTCMonth()]!,
    year: d.getUTCFullYear(),
    weekday: WEEKDAYS[d.getUTCDay()]!,
  };
};

interface DatedQuestion {
  readonly kind: 'day' | 'relative';
  readonly request: Omit<RetrieveRequest, 'bot'>;
  /** The window the question asks about, as the benchmark reads it (not as the service does). */
  readonly window: { readonly from: number; readonly to: number };
}

/** The five date-anchored questions of one session. */
function datedQuestions(conversation: LocomoConversation, session: LocomoSession): DatedQuestion[] {
  const { day, month, year, weekday } = dateWords(session.startMs);
  const asked = utcDay(session.startMs);
  const after = (days: number) => new Date(session.startMs + days * DAY_MS).toISOString();
  // "last week" asked 8 days later: the ISO week (Monday to Sunday) before the asking day's.
  const weekBefore = utcDay(session.startMs + 8 * DAY_MS - 7 * DAY_MS);
  const lastMonday = weekBefore.from - ((new Date(weekBefore.from).getUTCDay() + 6) % 7) * DAY_MS;
  return [
    {
      kind: 'day',
      request: { query_text: `What did we talk about on ${day} ${month} ${year}?` },
      window: asked,
    },
    {
      kind: 'day',
      request: { query_text: `What did ${conversation.speakerA} tell me on ${weekday}, ${day} ${month}?` },
      window: asked,
    },
    {
      kind: 'relative',
      request: { query_text: 'What did we talk about yesterday?', now: after(1) },
      window: asked,
    },
    {
      kind: 'relative',
      request: { query_text: 'What did we talk about three days ago?', now: after(3) },
      window: asked,
    },
    {
      kind: 'relative',
      request: { query_text: 'What did we talk about last week?', now: after(8) },
      window: { from: lastMonday, to: lastMonday + 7 * DAY_MS },
    },
  ];
}

/** The turns a reader takes within the budget (a ranked prefix, as evidence recall takes them). */
function turnsWithin(hits: readonly RetrieveHit[], budget: number): string[] {
  const turns: string[] = [];
  for (const hit of hits) {
    const ids = hit.messageIds
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (turns.length + ids.length > budget) break;
    turns.push(...ids);
  }
  return turns;
}

/** The session of a single-hop question whose evidence all sits in one session; undefined otherwise. */
function evidenceSession(
  conversation: LocomoConversation,
  evidence: readonly string[],
): LocomoSession | undefined {
  const sessions = new Set(evidence.map((id) => Number(/^D(\d+):/.exec(id)?.[1])));
  if (sessions.size !== 1) return undefined;
  const [index] = sessions;
  return conversation.sessions.find((s) => s.index === index);
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / (values.length || 1);

const locomo = await startLocomoService(conversations);
try {
  const started = performance.now();
  for (const conversation of conversations) await ingestConversation(locomo, conversation);
  const idleMs = Math.max(...Object.values(locomo.config.bots).map((b) => b.chunk.idleMs));
  for (const conversation of conversations) await drainBot(locomo, botName(conversation), idleMs + 600_000);
  console.log(
    `data: ${dataFile} (read at run time, not copied); ${conversations.length} conversations ingested in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s; embedder ${locomo.embedder.model}`,
  );

  const shares: Record<'day' | 'relative', number[]> = { day: [], relative: [] };
  const empty: Record<'day' | 'relative', number> = { day: 0, relative: 0 };
  const topic: { plain: number[]; dated: number[] } = { plain: [], dated: [] };
  for (const conversation of conversations) {
    const bot = botName(conversation);
    for (const session of conversation.sessions) {
      for (const question of datedQuestions(conversation, session)) {
        const { hits } = await locomo.client.retrieve({ bot, limit: 20, ...question.request });
        const turns = turnsWithin(hits, BUDGET);
        if (turns.length === 0) empty[question.kind] += 1;
        const inside = turns.filter((id) => {
          const ts = locomo.tsById.get(`${bot}/${id}`) ?? -1;
          return ts >= question.window.from && ts < question.window.to;
        });
        // No turn at all counts as a miss: the asked day has memories, so an empty answer is wrong.
        shares[question.kind].push(turns.length === 0 ? 0 : inside.length / turns.length);
      }
    }
    for (const question of conversation.questions) {
      if (question.category !== 4 || question.evidence.length === 0) continue;
      const session = evidenceSession(conversation, question.evidence);
      if (session === undefined) continue;
      const { month, year } = dateWords(session.startMs);
      const dated = `${question.question.replace(/[?.\s]+$/, '')} in ${month} ${year}?`;
      for (const [text, into] of [
        [question.question, topic.plain],
        [dated, topic.dated],
      ] as const) {
        const { hits } = await locomo.client.retrieve({ bot, query_text: text, limit: 50 });
        into.push(scoreAtBudget(hits, question.evidence, BUDGET).recall);
      }
    }
  }
  const plain = mean(topic.plain);
  const dated = mean(topic.dated);
  console.log(`\nshare of the turns within ${BUDGET} that lie in the asked day or window (target >= 90 %)\n`);
  console.log('| questions | share | answers with no turn |');
  console.log('|---|---|---|');
  for (const kind of ['day', 'relative'] as const) {
    console.log(`| ${kind} (n=${shares[kind].length}) | ${pct(mean(shares[kind]))} | ${empty[kind]} |`);
  }
  console.log(
    `\ntopic + time: evidence recall at ${BUDGET} turns, single-hop questions with evidence in one session\n`,
  );
  console.log('| asked | recall | missed |');
  console.log('|---|---|---|');
  console.log(`| as written (n=${topic.plain.length}) | ${pct(plain)} | ${pct(1 - plain)} |`);
  console.log(`| with the session's month appended | ${pct(dated)} | ${pct(1 - dated)} |`);
  const removed = 1 - (1 - dated) / (1 - plain || 1);
  console.log(
    `\nthe month removes ${(100 * removed).toFixed(2)} % of the misses (target >= 50 %); ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
} finally {
  await locomo.close();
}
