/**
 * @module Recall benchmark (issue 12): ingests LoCoMo conversations through the HTTP API as a client would,
 * asks every question with POST /retrieve, and prints evidence recall at 5 / 10 / 25 / 50 turns overall and
 * per category, the chunks and characters returned, and /retrieve latency. Product defaults throughout.
 * Run: node --import tsx bench/recall.bench.ts [--data FILE|DIR] [--min-chars N --max-chars N] (docs/recall.md)
 */
import { existsSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RetrieveHit } from '../src/wire/retrieve-request.js';
import { type BudgetScore, scoreAtBudget } from './recall/evidence-recall.js';
import { loadLocomo } from './recall/locomo-dataset.js';
import {
  BadBotSettings,
  botName,
  drainBot,
  ingestConversation,
  type LocomoService,
  startLocomoService,
} from './recall/locomo-service.js';

const BUDGETS = [5, 10, 25, 50] as const;
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

const conversations = loadLocomo(dataFile);
const chunkOverride = {
  ...(argValue('--min-chars') ? { minChars: Number(argValue('--min-chars')) } : {}),
  ...(argValue('--max-chars') ? { maxChars: Number(argValue('--max-chars')) } : {}),
};

// Product defaults; only the places (free ports, a scratch folder) and, when asked, the chunk sizes differ.
let locomo: LocomoService;
try {
  locomo = await startLocomoService(
    conversations,
    Object.keys(chunkOverride).length > 0 ? { chunk: chunkOverride } : {},
  );
} catch (error) {
  if (!(error instanceof BadBotSettings)) throw error;
  console.error(`recall benchmark: bad --min-chars/--max-chars:\n${error.problems.join('\n')}`);
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

try {
  const { tsById } = locomo;
  const started = performance.now();
  let chunks = 0;
  let multiDay = 0;
  for (const conversation of conversations) await ingestConversation(locomo, conversation);
  const idleMs = Math.max(...Object.values(config.bots).map((bot) => bot.chunk.idleMs));
  for (const conversation of conversations) {
    chunks += await drainBot(locomo, botName(conversation), idleMs + 600_000);
    multiDay += await countMultiDayChunks(botName(conversation), tsById);
  }
  const turns = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  const sizes = Object.values(config.bots)[0]!.chunk;
  console.log(`data: ${dataFile} (read at run time, not copied)`);
  console.log(
    `ingested ${conversations.length} conversations, ${turns} turns -> ${chunks} chunks ` +
      `(${(turns / chunks).toFixed(1)} turns/chunk; ${multiDay} span more than one UTC day) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s; chunk ${sizes.minChars}/${sizes.maxChars} chars, ` +
      `idle ${sizes.idleMs} ms, embedder ${embedder.model}`,
  );

  const scores: { conversation: string; category: number; byBudget: BudgetScore[] }[] = [];
  const latencies: number[] = [];
  for (const conversation of conversations) {
    for (const question of conversation.questions) {
      const askedAt = performance.now();
      const { hits } = await client.retrieve({
        bot: botName(conversation),
        query_text: question.question,
        limit: RETRIEVE_LIMIT,
      });
      latencies.push(performance.now() - askedAt);
      const ranked: readonly RetrieveHit[] = hits;
      scores.push({
        conversation: conversation.sampleId,
        category: question.category,
        byBudget: BUDGETS.map((budget) => scoreAtBudget(ranked, question.evidence, budget)),
      });
    }
  }

  const row = (label: string, picked: typeof scores) =>
    `| ${label} (n=${picked.length}) | ${BUDGETS.map((_, b) => pct(mean(picked.map((s) => s.byBudget[b]!.recall)))).join(' | ')} |`;
  console.log(`\nevidence recall at a budget of N turns (${scores.length} questions)\n`);
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
  console.log(
    `\n/retrieve latency (limit ${RETRIEVE_LIMIT}, through HTTP, embedding included): ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms ` +
      `(load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: shared machine, noisy)`,
  );
} finally {
  await locomo.close();
}
