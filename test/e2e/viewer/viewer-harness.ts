/**
 * @module What the memory viewer's browser tests share: the bundle built from the current sources, Debian's
 * Chromium, a service seeded with memories from several sources and SillyTavern, and axe-core in the page.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../../../src/runtime/test-support/debian-chromium.js';
export { buildViewer } from '../../../src/http/test-support/build-viewer.js';
import { sillyTavernPayload } from '../../../src/http/test-support/sillytavern-payload.js';
import { HashingEmbedder } from '../../../src/embedding/hashing/hashing-embedder.js';
import type { TestService } from '../../../src/service/test-support/start-test-service.js';
import { TEST_DIMENSIONS } from '../../../src/config/test-support/test-bot.js';
import type { BotStatsResponse } from '../../../src/wire/stats-response.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** `false` to run, or why the browser tests are skipped (no Chromium outside CI). */
export const skipBrowser = skipWithoutChromium;

/** Screenshots land here (gitignored); docs/ keeps the one the README shows. */
export const SCREENSHOT_DIR = `${repoRoot}test-output/screenshots`;


export async function launchBrowser(hostRules = ''): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return launchChromium(hostRules);
}

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

interface Seed {
  readonly source: string;
  readonly channel_id?: string;
  readonly guild_id?: string;
  readonly is_dm?: boolean;
  readonly messages: readonly [string, 'user' | 'self', string, number][];
}

/** Anna's facts on Discord in a guild, a DM, a Hermes chat, and a long imported history (one chunk a day). */
function seeds(): Seed[] {
  const anna: Seed['messages'] = [
    ['d1', 'user', 'My sister Anna lives in Lisbon and teaches piano at a small conservatory near the river.', at('2026-11-28T10:00:00Z')],
    ['d2', 'self', 'Lisbon! Does Anna play concerts too, or does she mostly teach these days?', at('2026-11-28T10:01:00Z')],
    ['d3', 'user', 'She plays chamber music on Sundays, mostly Schubert, with two friends from school.', at('2026-11-28T10:02:00Z')],
    ['d4', 'self', 'Schubert on Sundays sounds lovely. I will ask about her next concert.', at('2026-11-28T10:03:00Z')],
  ];
  const history = Array.from({ length: 70 }, (_, i): Seed['messages'][number] => [
    `h${i}`,
    i % 2 === 0 ? 'user' : 'self',
    `Imported note ${i}: the garden had ${i + 3} tomatoes ripening on the south wall that week.`,
    at('2026-06-01T09:00:00Z') + i * DAY,
  ]);
  return [
    { source: 'discord', guild_id: 'g1', channel_id: 'c1', messages: anna },
    {
      source: 'discord',
      channel_id: 'dm7',
      is_dm: true,
      messages: [
        ['p1', 'user', 'Between us: I am planning a surprise trip to Porto for Anna in spring.', at('2026-11-30T21:00:00Z')],
        ['p2', 'self', 'Your secret is safe. Porto in spring is a wonderful idea.', at('2026-11-30T21:01:00Z')],
      ],
    },
    {
      source: 'hermes',
      messages: [
        ['t1', 'user', 'Remind me that the piano tuner comes on Thursday at nine in the morning.', at('2026-12-01T08:00:00Z')],
        ['t2', 'self', 'Noted: the piano tuner, Thursday at nine.', at('2026-12-01T08:00:30Z')],
      ],
    },
    { source: 'import', messages: history },
  ];
}

/** SillyTavern's own points: no source, written straight into the collection as the extension does. */
export const SILLYTAVERN_TEXTS = [
  '[2026-11-29]\nHelen: Anna sent a postcard of the tram in Lisbon.\nMythos: The yellow tram! Keep it on the fridge.',
  '[2026-12-02]\nHelen: I started learning the cello myself.\nMythos: A cello in the family of pianists, brave!',
];

/** Saves every seed through /save, writes every chunk, and adds SillyTavern's points. Returns the point count. */
export async function seedMemories(service: TestService, bot: string, headers: Record<string, string> = {}) {
  for (const seed of seeds()) {
    const { messages, ...where } = seed;
    const saved = await service.post(
      '/save',
      {
        bot,
        ...where,
        messages: messages.map(([message_id, speaker_kind, text, ts]) => ({
          message_id,
          speaker_kind,
          text,
          ts,
          ...(speaker_kind === 'user' ? { speaker_name: 'Helen', user_id: 'u-helen' } : {}),
          ...(where.channel_id ? { channel_id: where.channel_id } : {}),
          ...(where.guild_id ? { guild_id: where.guild_id } : {}),
          ...(where.is_dm ? { is_dm: true } : {}),
        })),
      },
      headers,
    );
    if (saved.status !== 200) throw new Error(`seed /save answered ${saved.status}: ${JSON.stringify(saved.json)}`);
  }
  await service.writer.runOnce({ flush: true });
  const collection = service.config.bots[bot]!.collection;
  const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
  const vectors = await embedder.embed(SILLYTAVERN_TEXTS);
  await storeClient(service).upsert(collection, {
    wait: true,
    points: SILLYTAVERN_TEXTS.map((text, i) => ({
      id: 900_000 + i,
      vector: Array.from(vectors[i]!),
      payload: sillyTavernPayload(text, i),
    })),
  });
  return countPoints(service, collection);
}

export const storeClient = (service: TestService) =>
  new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });

export async function countPoints(service: TestService, collection: string, filter?: object): Promise<number> {
  const answer = await storeClient(service).count(collection, { exact: true, ...(filter ? { filter } : {}) });
  return answer.count;
}

/** The journal as `GET /bots/{bot}/stats` counts it: messages held (every source) and tombstones. */
export async function journalCounts(
  service: TestService,
  bot: string,
  headers: Record<string, string> = {},
): Promise<{ messages: number; forgotten: number }> {
  const answer = await fetch(`${service.url}/bots/${bot}/stats`, { headers });
  const stats = (await answer.json()) as BotStatsResponse;
  const messages = Object.values(stats.messages.bySource).reduce((sum, n) => sum + n, 0);
  return { messages, forgotten: stats.messages.forgotten };
}

const AXE_SOURCE = readFileSync(`${repoRoot}node_modules/axe-core/axe.min.js`, 'utf8');

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  return page.evaluate(async (source) => {
    // Evaluated by the test, not loaded by the page: the page's policy allows only its own script.
    // biome-ignore lint/security/noGlobalEval: axe-core's own source, run in the test's browser page
    // biome-ignore lint/complexity/noCommaOperator: an indirect eval runs it in the page's global scope
    (0, eval)(source);
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  }, AXE_SOURCE);
}
