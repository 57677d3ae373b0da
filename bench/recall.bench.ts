/**
 * @module Recall benchmark (issue 12): ingests LoCoMo conversations through the HTTP API as a client would,
 * asks every question with POST /retrieve, and prints evidence recall at 5 / 10 / 25 / 50 turns overall and
 * per category, the chunks and characters returned, and /retrieve latency. Product defaults throughout.
 * Also recall within 1,000 / 2,000 / 4,000 / 8,000 characters of the block (as `max_chars` fills it), and the
 * mean hits returned at the default settings for questions about what a conversation never mentions
 * (recall/never-discussed.ts; issue 35).
 * With --reembed, it then re-embeds every bot to the same model (`memory-pool reembed`'s passes: a new collection
 * and its parts index, then the switch) and asks again: the figures must not move (issue 23).
 * Run: node --import tsx bench/recall.bench.ts [--data FILE|DIR] [--min-chars N --max-chars N] [--reembed] [--embedder distilled]
 * [--keep DIR] [--conversation ID] [--quick] [--noise-cut SHARE] [--per-question FILE] (docs/recall.md)
 * A quick loop: `--keep DIR` stores into DIR once and a later run with the same DIR and settings only asks
 * (about 20 s instead of 60); `--conversation conv-26` stores and asks one conversation; `--quick` leaves out
 * the chunk-vectors-alone table; `--noise-cut 0` sends `noise_cut` with every question (0: the cut off, to see
 * what the bot's default costs); `--per-question FILE` writes each question's recall and where its evidence
 * turns lie (the table of where evidence lies is printed either way).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fitRecallToChars } from '../src/retrieval/fit-recall-chars.js';
import type { RetrieveHit } from '../src/wire/retrieve-request.js';
import {
  type BudgetScore,
  EVIDENCE_BANDS,
  type EvidenceBand,
  placeEvidence,
  scoreAtBudget,
} from './recall/evidence-recall.js';
import { readChunkPoints, scoreChunkVectors } from './recall/chunk-vector-recall.js';
import { loadLocomo } from './recall/locomo-dataset.js';
import { neverDiscussedCheckQuestions, neverDiscussedQuestions } from './recall/never-discussed.js';
import {
  BadBotSettings,
  botName,
  drainBot,
  ingestConversation,
  isStored,
  type LocomoService,
  recordTurnTimes,
  STORED_MARK,
  startLocomoService,
} from './recall/locomo-service.js';
import { reembedEveryBot } from './recall/reembed-every-bot.js';
import { countModelTexts } from './support/count-model-texts.js';

const BUDGETS = [5, 10, 25, 50] as const;
/** Budgets in characters of the formatted block, as `max_chars` fills it (whole hits, best first). */
const CHAR_BUDGETS = [1000, 2000, 4000, 8000] as const;
const CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};
/** The most /retrieve allows; enough to fill 50 turns whatever the chunk size. */
const RETRIEVE_LIMIT = 50;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argValue = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

function resolveDataFile(): string {
  const given =
    argValue('--data') ??
    process.env.MEMORY_POOL_LOCOMO ??
    join(repoRoot, '../shared/datasets/locomo-dev/locomo-dev.json');
  const path = resolve(given);
  return existsSync(path) && statSync(path).isDirectory() ? join(path, 'locomo-dev.json') : path;
}

const dataFile = resolveDataFile();
if (!existsSync(dataFile)) {
  console.log(
    `recall benchmark skipped: no LoCoMo data at ${dataFile}.\n` +
      'It is read at run time, never copied into the repo: pass --data FILE|DIR or set MEMORY_POOL_LOCOMO.',
  );
  process.exit(0);
}

const withReembed = process.argv.includes('--reembed');
const noiseCut = argValue('--noise-cut') === undefined ? {} : { noise_cut: Number(argValue('--noise-cut')) };
const quick = process.argv.includes('--quick');
/** `--per-question FILE`: each question's recall at every budget and where each evidence turn lies, as JSON. */
const perQuestionFile = argValue('--per-question');
const perQuestion: unknown[] | undefined = perQuestionFile === undefined ? undefined : [];
const only = argValue('--conversation');
const conversations = loadLocomo(dataFile).filter((c) => only === undefined || c.sampleId === only);
if (conversations.length === 0) {
  console.error(`recall benchmark: no conversation ${only} in ${dataFile}`);
  process.exit(2);
}
const chunkOverride = {
  ...(argValue('--min-chars') ? { minChars: Number(argValue('--min-chars')) } : {}),
  ...(argValue('--max-chars') ? { maxChars: Number(argValue('--max-chars')) } : {}),
};
const keep = argValue('--keep') === undefined ? undefined : resolve(argValue('--keep')!);
// A kept folder answers only for the settings that stored it.
const storedAs = JSON.stringify({
  dataFile,
  conversations: conversations.map((c) => c.sampleId),
  chunk: chunkOverride,
  embedder: argValue('--embedder') ?? null,
});
const reuse = keep !== undefined && isStored(keep);
if (reuse && readFileSync(join(keep, STORED_MARK), 'utf8') !== storedAs) {
  console.error(
    `recall benchmark: ${keep} was stored with other settings: ${readFileSync(join(keep, STORED_MARK), 'utf8')}`,
  );
  process.exit(2);
}
if (reuse && withReembed) {
  console.error('recall benchmark: --reembed changes the kept folder; run it without --keep');
  process.exit(2);
}

// Product defaults; only the places (free ports, a scratch folder) and, when asked, the chunk sizes and
// the embedder (--embedder distilled, or any provider that needs no other key) differ.
let locomo: LocomoService;
try {
  locomo = await startLocomoService(
    conversations,
    Object.keys(chunkOverride).length > 0 ? { chunk: chunkOverride } : {},
    argValue('--embedder') ? { provider: argValue('--embedder') } : undefined,
    keep === undefined ? {} : { keep },
  );
} catch (error) {
  if (!(error instanceof BadBotSettings)) throw error;
  console.error(`recall benchmark: bad --min-chars/--max-chars/--embedder:\n${error.problems.join('\n')}`);
  process.exit(2);
}
const { service, client, config, embedder } = locomo;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const pct = (value: number) => `${(100 * value).toFixed(1)} %`;
const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / (values.length || 1);

/** Chunks whose messages fall on more than one UTC day: their `[YYYY-MM-DD]` header misdates some. */
async function countMultiDayChunks(bot: string, tsById: Map<string, number>): Promise<number> {
  const collection = config.bots[bot]!.collection;
  const response = await fetch(`${service.storeUrl}/collections/${collection}/points/scroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limit: 100_000, with_payload: ['messageIds'] }),
  });
  const body = (await response.json()) as { result: { points: { payload: { messageIds: string } }[] } };
  return body.result.points.filter((point) => {
    const days = point.payload.messageIds
      .split(',')
      .map((id) => new Date(tsById.get(`${bot}/${id}`) ?? 0).toISOString().slice(0, 10));
    return new Set(days).size > 1;
  }).length;
}

interface Measured {
  readonly scores: {
    conversation: string;
    category: number;
    byBudget: BudgetScore[];
    /** At each of CHAR_BUDGETS: the hits whose block fits, whatever turns they hold. */
    byChars: BudgetScore[];
    /** Where each evidence turn lies in the returned turns (limit 50). */
    placed: EvidenceBand[];
  }[];
  readonly latencies: number[];
  /** Hits per recall mode (counted only with --reembed, which asks with `explain`). */
  readonly modes: Map<string, number>;
}

/** Asks every question once, in order. */
async function askEveryQuestion(): Promise<Measured> {
  const scores: Measured['scores'] = [];
  const latencies: number[] = [];
  const modes = new Map<string, number>();
  for (const conversation of conversations) {
    for (const question of conversation.questions) {
      const askedAt = performance.now();
      const { hits } = await client.retrieve({
        bot: botName(conversation),
        query_text: question.question,
        limit: RETRIEVE_LIMIT,
        ...noiseCut,
        ...(withReembed ? { explain: true } : {}),
      });
      latencies.push(performance.now() - askedAt);
      for (const hit of hits) {
        if (hit.explain) modes.set(hit.explain.mode, (modes.get(hit.explain.mode) ?? 0) + 1);
      }
      const ranked: readonly RetrieveHit[] = hits;
      const placed = placeEvidence(ranked, question.evidence);
      const byBudget = BUDGETS.map((budget) => scoreAtBudget(ranked, question.evidence, budget));
      scores.push({
        conversation: conversation.sampleId,
        category: question.category,
        byBudget,
        byChars: CHAR_BUDGETS.map((chars) =>
          scoreAtBudget(fitRecallToChars(ranked, chars), question.evidence, Number.POSITIVE_INFINITY),
        ),
        placed,
      });
      if (perQuestion !== undefined) {
        perQuestion.push({
          conversation: conversation.sampleId,
          category: question.category,
          question: question.question,
          evidence: question.evidence.map((id, i) => ({ id, band: placed[i] })),
          recall: Object.fromEntries(BUDGETS.map((budget, b) => [budget, byBudget[b]!.recall])),
        });
      }
    }
  }
  return { scores, latencies, modes };
}

const formatModes = (modes: Map<string, number>) =>
  [...modes].map(([mode, n]) => `${mode} ${n}`).join(', ') || 'none counted';

/** Prints the recall table, per category and conversation, what was returned, and the latency. */
function report({ scores, latencies }: Measured, label?: string): void {
  const row = (name: string, picked: typeof scores, by: 'byBudget' | 'byChars' = 'byBudget') =>
    `| ${name} (n=${picked.length}) | ${picked[0]?.[by].map((_, b) => pct(mean(picked.map((s) => s[by][b]!.recall)))).join(' | ')} |`;
  console.log(
    `\nevidence recall at a budget of N turns (${scores.length} questions${label ? `, ${label}` : ''})\n`,
  );
  console.log(`| turns | ${BUDGETS.join(' | ')} |`);
  console.log(`|---|${BUDGETS.map(() => '---').join('|')}|`);
  console.log(row('overall', scores));
  for (const [category, name] of Object.entries(CATEGORIES)) {
    console.log(
      row(
        `${category} ${name}`,
        scores.filter((s) => s.category === Number(category)),
      ),
    );
  }
  // Per conversation too: a change should help each of them, not just their mean.
  for (const conversation of conversations) {
    console.log(
      row(
        conversation.sampleId,
        scores.filter((s) => s.conversation === conversation.sampleId),
      ),
    );
  }
  const returned = (field: 'chunks' | 'chars' | 'turns') =>
    BUDGETS.map((_, b) => mean(scores.map((s) => s.byBudget[b]![field])).toFixed(1)).join(' | ');
  console.log(`| chunks returned (mean) | ${returned('chunks')} |`);
  console.log(`| turns returned (mean) | ${returned('turns')} |`);
  console.log(`| characters returned (mean) | ${returned('chars')} |`);
  reportEvidencePlaces(scores);
  console.log(
    `\nevidence recall at a budget of N characters of the [Past chat memories] block (max_chars)\n`,
  );
  console.log(`| characters | ${CHAR_BUDGETS.join(' | ')} |`);
  console.log(`|---|${CHAR_BUDGETS.map(() => '---').join('|')}|`);
  console.log(row('overall', scores, 'byChars'));
  for (const [category, name] of Object.entries(CATEGORIES)) {
    console.log(
      row(
        `${category} ${name}`,
        scores.filter((s) => s.category === Number(category)),
        'byChars',
      ),
    );
  }
  for (const conversation of conversations) {
    const picked = scores.filter((s) => s.conversation === conversation.sampleId);
    console.log(row(conversation.sampleId, picked, 'byChars'));
  }
  const returnedByChars = (field: 'chunks' | 'turns') =>
    CHAR_BUDGETS.map((_, b) => mean(scores.map((s) => s.byChars[b]![field])).toFixed(1)).join(' | ');
  console.log(`| hits returned (mean) | ${returnedByChars('chunks')} |`);
  console.log(`| turns returned (mean) | ${returnedByChars('turns')} |`);
  console.log(
    `\n/retrieve latency (limit ${RETRIEVE_LIMIT}, through HTTP, embedding included): ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms ` +
      `(load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: shared machine, noisy)`,
  );
}

/**
 * Where the evidence turns lie in the returned turns, per category: what a re-ranking could still reach
 * (turns 11-50) and what no ordering of these hits can (not returned).
 */
function reportEvidencePlaces(scores: Measured['scores']): void {
  console.log('\nevidence turns by where they lie in the returned turns (limit 50)\n');
  console.log(`| category | evidence turns | ${EVIDENCE_BANDS.join(' | ')} |`);
  console.log(`|---|---|${EVIDENCE_BANDS.map(() => '---').join('|')}|`);
  const row = (name: string, picked: Measured['scores']) => {
    const placed = picked.flatMap((s) => s.placed);
    const counts = EVIDENCE_BANDS.map((band) => placed.filter((b) => b === band).length);
    console.log(`| ${name} | ${placed.length} | ${counts.join(' | ')} |`);
  };
  row('overall', scores);
  for (const [category, name] of Object.entries(CATEGORIES)) {
    row(
      `${category} ${name}`,
      scores.filter((s) => s.category === Number(category)),
    );
  }
}

/**
 * Hits returned at the bot's default settings (no `limit` sent) for questions about what a conversation never
 * mentions, the 40 the noise cut was chosen on and a check set written apart from them, beside the same count
 * for its real questions: what a reader injects when nothing fits (issue 35).
 */
async function reportNeverDiscussed(): Promise<void> {
  const rows: string[] = [];
  const totals = { noise: 0, noiseCount: 0, check: 0, checkCount: 0, emptied: 0, real: 0 };
  for (const conversation of conversations) {
    const count = async (questions: readonly string[]) => {
      let hits = 0;
      let empty = 0;
      for (const question of questions) {
        const answer = await client.retrieve({
          bot: botName(conversation),
          query_text: question,
          ...noiseCut,
        });
        hits += answer.hits.length;
        if (answer.hits.length === 0) empty += 1;
      }
      return { hits, empty };
    };
    const questions = neverDiscussedQuestions(conversation);
    const checks = neverDiscussedCheckQuestions(conversation);
    const noise = await count(questions);
    const check = await count(checks);
    const real = await count(conversation.questions.map((q) => q.question));
    totals.noise += noise.hits;
    totals.noiseCount += questions.length;
    totals.check += check.hits;
    totals.checkCount += checks.length;
    totals.emptied += real.empty;
    totals.real += conversation.questions.length;
    rows.push(
      `| ${conversation.sampleId} | ${questions.length} | ${(noise.hits / questions.length).toFixed(2)} | ` +
        `${checks.length} | ${(check.hits / checks.length).toFixed(2)} | ` +
        `${(real.hits / conversation.questions.length).toFixed(2)} | ${real.empty} |`,
    );
  }
  const limit = Object.values(config.bots)[0]!.retrieve.limit;
  console.log(
    `\nhits returned at the default settings (limit ${limit}), never-discussed questions beside the real ones:\n`,
  );
  console.log(
    '| conversation | never-discussed | mean hits | check set | mean hits | mean hits, real questions | real questions answered with none |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    `| all | ${totals.noiseCount} | ${(totals.noise / totals.noiseCount).toFixed(2)} | ${totals.checkCount} | ` +
      `${(totals.check / totals.checkCount).toFixed(2)} | | ${totals.emptied} of ${totals.real} |`,
  );
}

/** Recall through the chunk vectors alone, as st-qdrant-memory searches: stored ones and the texts embedded whole. */
async function reportChunkVectorRecall(questionCount: number): Promise<void> {
  const chunkRecall = { stored: BUDGETS.map(() => 0), embeddedWhole: BUDGETS.map(() => 0) };
  for (const conversation of conversations) {
    const points = await readChunkPoints(service.storeUrl!, config.bots[botName(conversation)]!.collection);
    const questions = [];
    for (const question of conversation.questions) {
      const [vector] = await embedder.embed([question.question], { query: true });
      questions.push({ vector: vector!, evidence: question.evidence });
    }
    const scored = await scoreChunkVectors(embedder, points, questions, BUDGETS);
    for (const kind of ['stored', 'embeddedWhole'] as const) {
      scored[kind].forEach((value, b) => {
        chunkRecall[kind][b]! += (value * questions.length) / questionCount;
      });
    }
  }
  console.log(`\nchunk vectors alone, as SillyTavern searches them (dense, chunk points only):\n`);
  console.log(`| turns | ${BUDGETS.join(' | ')} |`);
  console.log(`|---|${BUDGETS.map(() => '---').join('|')}|`);
  console.log(`| stored chunk vectors | ${chunkRecall.stored.map(pct).join(' | ')} |`);
  console.log(`| chunk texts embedded whole | ${chunkRecall.embeddedWhole.map(pct).join(' | ')} |`);
}

try {
  const { tsById } = locomo;
  const started = performance.now();
  let chunks = 0;
  let multiDay = 0;
  for (const conversation of conversations) {
    if (reuse) recordTurnTimes(locomo, conversation);
    else await ingestConversation(locomo, conversation);
  }
  const idleMs = Math.max(...Object.values(config.bots).map((bot) => bot.chunk.idleMs));
  for (const conversation of conversations) {
    chunks += await drainBot(locomo, botName(conversation), idleMs + 600_000);
    multiDay += await countMultiDayChunks(botName(conversation), tsById);
  }
  if (keep !== undefined && !reuse) writeFileSync(join(keep, STORED_MARK), storedAs);
  const turns = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  // Read before any question is asked: the texts the model embedded to store the turns (0 with no offline model).
  const modelTexts = countModelTexts();
  const sizes = Object.values(config.bots)[0]!.chunk;
  console.log(`data: ${dataFile} (read at run time, not copied)`);
  console.log(
    `ingested ${conversations.length} conversations, ${turns} turns -> ${chunks} chunks ` +
      `(${(turns / chunks).toFixed(1)} turns/chunk; ${multiDay} span more than one UTC day) ` +
      `${reuse ? `kept in ${keep}` : `in ${((performance.now() - started) / 1000).toFixed(1)} s`}; chunk ${sizes.minChars}/${sizes.maxChars} chars, ` +
      `idle ${sizes.idleMs} ms, embedder ${embedder.model}`,
  );

  if (!reuse) {
    console.log(
      `model texts per stored message: ${(modelTexts / turns).toFixed(2)} (${modelTexts} texts for ${turns} turns)`,
    );
  }

  const before = await askEveryQuestion();
  report(before, withReembed ? 'before the reembed' : undefined);
  if (perQuestionFile !== undefined) {
    writeFileSync(resolve(perQuestionFile), `${JSON.stringify(perQuestion, null, 1)}\n`);
    console.log(`\neach question's recall and evidence places: ${resolve(perQuestionFile)}`);
  }
  await reportNeverDiscussed();
  if (!quick) await reportChunkVectorRecall(before.scores.length);
  if (withReembed) {
    const reembedStarted = performance.now();
    const moved = await reembedEveryBot(config, service.storeUrl!, embedder);
    console.log(
      `\nre-embedded every bot to the same model (${embedder.model}): ${moved} in ` +
        `${((performance.now() - reembedStarted) / 1000).toFixed(1)} s (load average ${loadavg()[0]!.toFixed(1)})`,
    );
    const after = await askEveryQuestion();
    report(after, 'right after the switch');
    const same = after.scores.filter(
      (s, i) => JSON.stringify(s.byBudget) === JSON.stringify(before.scores[i]!.byBudget),
    ).length;
    console.log(
      `\nafter the reembed: ${same} of ${after.scores.length} questions scored exactly as before; ` +
        `hits by mode before ${formatModes(before.modes)}, after ${formatModes(after.modes)}`,
    );
  }
} finally {
  await locomo.close();
}
