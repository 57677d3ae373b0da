/**
 * @module The people scenario's steps, in order (issue 33's end-to-end): Helen speaks on Discord (a channel and
 * her DM), through Hermes on Telegram (her DM) and as the SillyTavern persona "Lena"; Sam has a DM too. Each
 * step asserts what a user would notice, reading the store back through its own REST API.
 */
import assert from 'node:assert/strict';
import { hermesKey, ownerKey } from '../../../src/http/test-support/test-api-keys.js';
import {
  DM_CHANNEL,
  HELEN,
  messagePayload,
  SAM,
} from '../../../src/interfaces/discord/test-support/discord-harness.js';
import { ask, command } from '../../../src/interfaces/discord/test-support/discord-interactions.js';
import {
  callOk,
  type PeopleWorld,
  recallInDiscordDm,
  recallInTelegramDm,
  type Replica,
  saveFromTelegram,
  TELEGRAM,
  until,
} from './people-world.js';
import { pointsHolding, readAllPoints, type StorePoint, writeSillyTavernChunk } from './store-points.js';

const SAM_DM = '300000000000000002';
const ST_POINT = '4f9c2a10-7b3e-4d5a-8c6f-0e1d2c3b4a59';
/** Every word of the DMs below, so the hashing embedder ranks them all and only privacy decides. */
export const DM_QUERY = 'locker code gym grey cat Pixel sister surprise party Friday';
const RENAME_DEADLINE_MS = 20_000;

/** What Helen said (as she wrote it), and the companion's reply in her Telegram DM. */
export const HELEN_SAID = [
  'I am training for the Lisbon half marathon in March',
  'my locker code at the gym is 4417',
  'I adopted a grey cat called Pixel',
  'Pixel is a lovely name for a grey cat',
];

/**
 * Step 1: before any link. On Postgres the Telegram side talks to the second replica. Resolves with the stored
 * chunk of her Telegram DM, as it reads before the link.
 */
export async function recordBeforeLink(world: PeopleWorld, telegram: Replica): Promise<StorePoint> {
  const { h } = world;
  await h.send('MESSAGE_CREATE', messagePayload({ content: HELEN_SAID[0]! }));
  await h.send('CHANNEL_CREATE', { id: DM_CHANNEL, type: 1, recipients: [HELEN] });
  await h.send('MESSAGE_CREATE', messagePayload({ guildId: null, content: HELEN_SAID[1]! }));
  await h.send('CHANNEL_CREATE', { id: SAM_DM, type: 1, recipients: [SAM] });
  await h.send(
    'MESSAGE_CREATE',
    messagePayload({
      guildId: null,
      channelId: SAM_DM,
      author: SAM,
      content: "my sister's surprise party is on Friday",
    }),
  );
  const saved = await saveFromTelegram(telegram, [
    { id: 'tg-1', text: HELEN_SAID[2]! },
    { id: 'tg-2', text: HELEN_SAID[3]!, self: true },
  ]);
  assert.equal(saved.status, 200, JSON.stringify(saved.json));
  await telegram.flush();
  const [telegramChunk] = await storedChunks(world, [
    'grey cat called Pixel',
    ...HELEN_SAID.slice(0, 2),
    'surprise party',
  ]);
  await writeSillyTavernChunk(world.storeUrl, 'mem_mythos', {
    id: ST_POINT,
    speakers: ['Lena', 'Mythos'],
    lines: ['Lena: I grow tomatoes on my balcony', 'Mythos: Sun-warm tomatoes!'],
    timestamp: Date.parse('2026-11-20T10:00:00Z'),
  });
  assert.match(String(telegramChunk!.payload.text), /\nHelen T: I adopted a grey cat/);
  // Who each DM is with, as memory-pool marks it (docs/people.md, dmWith): nobody is linked yet, so the account.
  assert.equal(telegramChunk!.payload.dmWith, `account:${TELEGRAM}`);
  return telegramChunk!;
}

/** Step 2: a DM recall sees that DM only, not Helen's DM on the other platform (nobody is linked yet). */
export async function assertDmRecallNarrow(world: PeopleWorld): Promise<void> {
  const recalled = (await recallInTelegramDm(world.a, DM_QUERY)).join('\n');
  assert.match(recalled, /grey cat called Pixel/, 'her own Telegram DM');
  assert.doesNotMatch(recalled, /locker code/, 'not yet her Discord DM');
  assert.doesNotMatch(recalled, /surprise party/, "never Sam's DM");
  const onDiscord = await recallInDiscordDm(world, DM_QUERY);
  assert.match(onDiscord, /locker code/, 'her own Discord DM');
  assert.doesNotMatch(onDiscord, /grey cat|surprise party/);
}

/**
 * The stored chunk holding each of `words`, once each is there: with two replicas, a flush on one may find
 * the other's writer already writing a chunk, which lands moments later.
 */
export async function storedChunks(world: PeopleWorld, words: readonly string[]): Promise<StorePoint[]> {
  const found = await until(
    async () => {
      const points = await readAllPoints(world.storeUrl);
      const chunks = words.map((w) => pointsHolding(points, w).filter((p) => p.collection === 'mem_mythos'));
      return chunks.every((c) => c.length > 0) ? words.map((w) => chunkHolding(points, w)) : undefined;
    },
    10_000,
    `chunks holding ${words.join(' / ')} stored`,
  );
  return found.value;
}

/** The store's chunk holding `words` (exactly one). */
export function chunkHolding(points: readonly StorePoint[], words: string): StorePoint {
  const found = pointsHolding(points, words).filter((p) => p.collection === 'mem_mythos');
  assert.equal(found.length, 1, `one chunk holds "${words}": ${JSON.stringify(found)}`);
  return found[0]!;
}

/**
 * Step 3: Helen asks `/memory link` on Discord and says the code through Hermes. Resolves with the person's
 * id and the moment the redeem was answered.
 */
export async function linkByCode(world: PeopleWorld): Promise<{ id: string; linkedAt: number }> {
  const asked = await ask(world.h, command({ user: HELEN }, 'link'));
  const code = /\*\*([0-9A-Z]{5}-[0-9A-Z]{5})\*\*/.exec(asked.edit?.content ?? '')?.[1];
  assert.ok(code, `a code in the answer: ${asked.edit?.content}`);
  const redeemed = await callOk(
    world,
    'POST',
    '/bots/mythos/link-codes/redeem',
    { code, account: { user_id: TELEGRAM } },
    hermesKey,
  );
  const linkedAt = performance.now();
  assert.equal(redeemed.name, 'Helen', 'named as the account that asked was last called');
  // An interface key sees only the account it vouched for, never the person's others (docs/people.md).
  assert.deepEqual(redeemed.accounts, [{ user_id: TELEGRAM }]);
  return { id: redeemed.id, linkedAt };
}

/**
 * Step 4: one name in old and new chunks. The link renames the stored Telegram chunk (same id, same
 * timestamp) in the background; a new one is written under the name at once; the owner then renames the
 * person "Helena" and links the persona "Lena": every chunk of hers follows, SillyTavern's point does not.
 */
export async function assertOneName(world: PeopleWorld, id: string, before: StorePoint): Promise<void> {
  const renamed = await until(
    async () => {
      const chunk = chunkHolding(await readAllPoints(world.storeUrl), 'grey cat called Pixel');
      return /\nHelen: I adopted a grey cat/.test(String(chunk.payload.text)) ? chunk : undefined;
    },
    RENAME_DEADLINE_MS,
    'the stored Telegram chunk renamed after the link',
  );
  assert.equal(renamed.value.id, before.id, 'the same point');
  assert.equal(renamed.value.payload.timestamp, before.payload.timestamp, 'the same timestamp');
  assert.doesNotMatch(String(renamed.value.payload.speakers), /Helen T/);
  // Her Telegram DM, rewritten by the same pass, is now with the person, its parts too.
  const afterPass = await readAllPoints(world.storeUrl);
  assert.equal(renamed.value.payload.dmWith, `person:${id}`);
  const parts = afterPass.filter(
    (p) => p.collection === 'mem_mythos__parts' && p.payload.chunkId === before.id,
  );
  assert.ok(
    parts.length > 0 && parts.every((p) => p.payload.dmWith === `person:${id}`),
    JSON.stringify(parts),
  );
  assert.equal(chunkHolding(afterPass, 'surprise party').payload.dmWith, `account:discord:${SAM.id}`);

  const saved = await saveFromTelegram(world.a, [{ id: 'tg-3', text: 'I start a pottery class on Tuesday' }]);
  assert.equal(saved.status, 200);
  await world.a.flush();
  const [fresh] = await storedChunks(world, ['pottery class']);
  assert.match(String(fresh!.payload.text), /\nHelen: I start a pottery class/, 'a new chunk: at once');

  await callOk(
    world,
    'PATCH',
    `/bots/mythos/people/${id}`,
    { name: 'Helena', add: [{ persona: 'Lena' }] },
    ownerKey,
  );
  await until(
    async () => {
      const points = await readAllPoints(world.storeUrl);
      const texts = HELEN_SAID.slice(0, 3)
        .concat('pottery class')
        .map((words) => String(chunkHolding(points, words).payload.text));
      return texts.every((text) => /\nHelena: /.test(text) && !/\nHelen( T)?: /.test(text))
        ? true
        : undefined;
    },
    RENAME_DEADLINE_MS,
    'every stored chunk of hers renamed Helena',
  );
  await world.h.send(
    'MESSAGE_CREATE',
    messagePayload({ content: 'I found a running route along the river' }),
  );
  await world.a.flush();
  const [route] = await storedChunks(world, ['running route']);
  const points = await readAllPoints(world.storeUrl);
  assert.match(String(route!.payload.text), /\nHelena: I found a running route/);
  const sillyTavern = points.find((p) => p.id === ST_POINT);
  assert.equal(sillyTavern?.payload.speakers, 'Lena, Mythos', "SillyTavern's own point is never rewritten");
  assert.equal(sillyTavern?.payload.dmWith, undefined);
  assert.equal(chunkHolding(points, HELEN_SAID[1]!).payload.dmWith, `person:${id}`, 'her Discord DM');
  assert.match(String(sillyTavern?.payload.text), /\nLena: I grow tomatoes/);
  assert.equal(sillyTavern?.payload.source, undefined);
}
