/**
 * @module Recall benchmark (issue 12): ingests LoCoMo conversations through the HTTP API as a client would,
 * asks every question with POST /retrieve, and prints evidence recall at 5 / 10 / 25 / 50 turns overall and
 * per category, the chunks and characters returned, and /retrieve latency. Product defaults throughout.
 * Run: node --import tsx bench/recall.bench.ts [--data FILE|DIR] [--min-chars N --max-chars N] (docs/recall.md)
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryPoolClient } from '../src/client/memory-pool-client.js';
import { configSchema } from '../src/config/config-schema.js';
import type { MemoryPoolConfig } from '../src/config/config-types.js';
import { CachedEmbedder } from '../src/embedding/cached-embedder.js';
import { createEmbedder } from '../src/embedding/create-embedder.js';
import { createLogger } from '../src/logging/logger.js';
import { startMemoryService } from '../src/service/start-memory-service.js';
import type { RetrieveHit } from '../src/wire/retrieve-request.js';
import { type BudgetScore, scoreAtBudget } from './recall/evidence-recall.js';
import { readChunkPoints, scoreChunkVectors } from './recall/chunk-vector-recall.js';
import { type LocomoConversation, loadLocomo } from './recall/locomo-dataset.js';
import { countModelTexts } from './support/count-model-texts.js';

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
/** A client re-sends its recent window: the last WINDOW turns, after every STEP new turns. */
const WINDOW = 10;
const STEP = 2;
/** Turns within a session are this far apart (LoCoMo dates sessions, not turns). */
const TURN_SPACING_MS = 30_000;

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
const botName = (c: LocomoConversation) => `locomo-${c.sampleId.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const chunkOverride = {
  ...(argValue('--min-chars') ? { minChars: Number(argValue('--min-chars')) } : {}),
  ...(argValue('--max-chars') ? { maxChars: Number(argValue('--max-chars')) } : {}),
};

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-recall-'));
// The schema applies the product's defaults (offline embedder, chunk sizes, retrieve settings); only the
// places (free ports, a scratch folder) and, when asked, the chunk sizes differ.
const checked = configSchema.safeParse({
  bots: Object.fromEntries(
    conversations.map((c) => [
      botName(c),
      {
        selfSpeaker: c.speakerB,
        collection: `mem_${botName(c).replace(/-/g, '_')}`,
        ...(Object.keys(chunkOverride).length > 0 ? { chunk: chunkOverride } : {}),
      },
    ]),
  ),
});
if (!checked.success) {
  const problems = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  console.error(`recall benchmark: bad --min-chars/--max-chars:\n${problems.join('\n')}`);
  process.exit(2);
}
const config: MemoryPoolConfig = {
  ...checked.data,
  listen: { host: '127.0.0.1', port: 0 },
  store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
  dataDir: join(dir, 'service'),
};
const logger = createLogger({ level: 'silent' });
const embedder = createEmbedder(config.embedding, { logger });
const queryEmbedder = new CachedEmbedder(embedder);
const service = await startMemoryService({ config, embedder, queryEmbedder, logger });
const client = new MemoryPoolClient({ baseUrl: service.url, timeoutMs: 30_000 });

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const pct = (value: number) => `${(100 * value).toFixed(1)} %`;
const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / (values.length || 1);

/** Saves one conversation session by session, re-sending a recent window as chat clients do. */
async function ingest(conversation: LocomoConversation, tsById: Map<string, number>): Promise<void> {
  const bot = botName(conversation);
  for (const session of conversation.sessions) {
    const messages = session.turns.map((turn, i) => {
      const ts = session.startMs + i * TURN_SPACING_MS;
      tsById.set(`${bot}/${turn.diaId}`, ts);
      // speaker_b is the agent (`self`), speaker_a the person: the product's shape, one agent and one user.
      // The chunk text is the same either way ("Name: text"), since selfSpeaker is speaker_b's name.
      return turn.speaker === conversation.speakerB
        ? { speaker_kind: 'self' as const, text: turn.text, message_id: turn.diaId, ts }
        : {
            speaker_kind: 'user' as const,
            text: turn.text,
            message_id: turn.diaId,
            ts,
            speaker_name: turn.speaker,
            user_id: `locomo:${turn.speaker}`,
          };
    });
    for (let end = Math.min(STEP, messages.length); ; end = Math.min(end + STEP, messages.length)) {
      await client.save({ bot, source: 'bench', messages: messages.slice(Math.max(0, end - WINDOW), end) });
      if (end === messages.length) break;
    }
  }
}

/** Waits until every accepted message is in a stored chunk (the remainder goes after the idle time). */
async function drain(bot: string, timeoutMs: number): Promise<number> {
  // The deadline counts from the last progress: on a loaded machine writing (embedding) takes long, not forever.
  let deadline = Date.now() + timeoutMs;
  let pending = Number.POSITIVE_INFINITY;
  for (;;) {
    const stats = await client.stats(bot);
    if (stats.messages.pending === 0) return stats.chunks.stored;
    if (stats.messages.pending < pending) {
      pending = stats.messages.pending;
      deadline = Date.now() + timeoutMs;
    }
    if (Date.now() > deadline) throw new Error(`${bot}: ${stats.messages.pending} messages still pending`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

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
  const tsById = new Map<string, number>();
  const started = performance.now();
  let chunks = 0;
  let multiDay = 0;
  for (const conversation of conversations) await ingest(conversation, tsById);
  const idleMs = Math.max(...Object.values(config.bots).map((bot) => bot.chunk.idleMs));
  for (const conversation of conversations) {
    chunks += await drain(botName(conversation), idleMs + 600_000);
    multiDay += await countMultiDayChunks(botName(conversation), tsById);
  }
  const turns = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  // Read before any question is asked: the texts the model embedded to store the turns (0 with no offline model).
  const modelTexts = countModelTexts();
  const sizes = Object.values(config.bots)[0]!.chunk;
  console.log(`data: ${dataFile} (read at run time, not copied)`);
  console.log(
    `ingested ${conversations.length} conversations, ${turns} turns -> ${chunks} chunks ` +
      `(${(turns / chunks).toFixed(1)} turns/chunk; ${multiDay} span more than one UTC day) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s; chunk ${sizes.minChars}/${sizes.maxChars} chars, ` +
      `idle ${sizes.idleMs} ms, embedder ${embedder.model}`,
  );
  console.log(
    `model texts per stored message: ${(modelTexts / turns).toFixed(2)} (${modelTexts} texts for ${turns} turns)`,
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
  // As st-qdrant-memory searches: chunk vectors only, stored ones against the chunk texts embedded whole.
  const chunkRecall = { stored: BUDGETS.map(() => 0), embeddedWhole: BUDGETS.map(() => 0) };
  for (const conversation of conversations) {
    const points = await readChunkPoints(service.storeUrl!, config.bots[botName(conversation)]!.collection);
    const questions = [];
    for (const question of conversation.questions) {
      const [vector] = await queryEmbedder.embed([question.question], { query: true });
      questions.push({ vector: vector!, evidence: question.evidence });
    }
    const scored = await scoreChunkVectors(embedder, points, questions, BUDGETS);
    for (const kind of ['stored', 'embeddedWhole'] as const) {
      scored[kind].forEach((value, b) => {
        chunkRecall[kind][b]! += (value * questions.length) / scores.length;
      });
    }
  }
  console.log(`\nchunk vectors alone, as SillyTavern searches them (dense, chunk points only):\n`);
  console.log(`| turns | ${BUDGETS.join(' | ')} |`);
  console.log(`|---|${BUDGETS.map(() => '---').join('|')}|`);
  console.log(`| stored chunk vectors | ${chunkRecall.stored.map(pct).join(' | ')} |`);
  console.log(`| chunk texts embedded whole | ${chunkRecall.embeddedWhole.map(pct).join(' | ')} |`);
  console.log(
    `\n/retrieve latency (limit ${RETRIEVE_LIMIT}, through HTTP, embedding included): ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms ` +
      `(load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: shared machine, noisy)`,
  );
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
