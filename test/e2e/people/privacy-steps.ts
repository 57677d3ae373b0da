/**
 * @module The people scenario's privacy steps: a DM recall on Telegram widens to Helen's Discord DM and no one
 * else's, `/retrieve { person }` keeps her memories, `/memory forget-me` on Discord leaves nothing of hers in
 * any source, and (two replicas) a link made on one is used by the other.
 */
import assert from 'node:assert/strict';
import { hermesKey, ownerKey } from '../../../src/http/test-support/test-api-keys.js';
import { HELEN } from '../../../src/interfaces/discord/test-support/discord-harness.js';
import { ask, command, press } from '../../../src/interfaces/discord/test-support/discord-interactions.js';
import { chunkHolding, DM_QUERY, HELEN_SAID, storedChunks } from './link-steps.js';
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
import { pointsHolding, readAllPoints } from './store-points.js';

/**
 * Step 5: asked in her Telegram DM, recall sees her Discord DM (the same person), never Sam's; and the other
 * way round, `/memory recall` in her Discord DM sees her Telegram DM.
 */
export async function assertDmRecallWidens(world: PeopleWorld): Promise<void> {
  const recalled = (await recallInTelegramDm(world.a, DM_QUERY)).join('\n');
  assert.match(recalled, /grey cat called Pixel/);
  assert.match(recalled, /locker code at the gym/, 'her Discord DM, now that she is one person');
  assert.doesNotMatch(recalled, /surprise party/, "never Sam's DM");

  const onDiscord = await recallInDiscordDm(world, DM_QUERY);
  assert.match(onDiscord, /locker code at the gym/);
  assert.match(onDiscord, /grey cat called Pixel/, 'her Telegram DM, in her Discord DM');
  assert.doesNotMatch(onDiscord, /surprise party/, "never Sam's DM");
}

/** `/retrieve { person }`: her chunks (under her one name) and her persona's SillyTavern point; not Sam's. */
export async function assertRecallByPerson(world: PeopleWorld, id: string): Promise<void> {
  const answer = await callOk(
    world,
    'POST',
    '/retrieve',
    { bot: 'mythos', query_text: `marathon tomatoes balcony pottery ${DM_QUERY}`, person: id },
    ownerKey,
  );
  const hits = answer.hits as { text: string; speakers: string }[];
  assert.ok(
    hits.some((hit) => /tomatoes/.test(hit.text)),
    "the persona's SillyTavern point",
  );
  assert.ok(
    hits.some((hit) => /half marathon/.test(hit.text)),
    'her Discord chunk',
  );
  for (const hit of hits) assert.match(hit.speakers, /\b(Helena|Lena)\b/, hit.text);
}

/**
 * Step 7: `/memory forget-me` by Helen on Discord names both accounts and their counts, and forgets every
 * message of hers in every source, and the companion's reply in her Telegram DM; SillyTavern's point of her
 * persona stays (only the owner deletes those) until the owner's person forget with `include_unsourced`.
 */
export async function assertForgetMe(
  world: PeopleWorld,
  id: string,
  telegramMessages: number,
): Promise<void> {
  const { h } = world;
  const asked = await ask(h, command({ user: HELEN }, 'forget-me'));
  const content = asked.callback?.data?.content ?? '';
  assert.match(content, /You are linked as Helena/);
  assert.match(content, new RegExp(`remembers ${3 + telegramMessages} messages: `));
  assert.match(content, new RegExp(`discord:${HELEN.id} \\(3\\), telegram:5678 \\(${telegramMessages}\\)`));
  const [confirm] = asked.callback?.data?.components?.[0]?.components ?? [];
  const confirmed = await ask(h, press({ user: HELEN }, confirm!.custom_id));
  assert.match(confirmed.callback?.data?.content ?? '', /^Forgotten: /);

  const points = await readAllPoints(world.storeUrl);
  for (const words of [...HELEN_SAID, 'pottery class', 'running route']) {
    assert.deepEqual(pointsHolding(points, words), [], `nothing left holding "${words}"`);
  }
  assert.equal(pointsHolding(points, "sister's surprise party").length > 0, true, "Sam's DM stays");
  assert.ok(
    points.every((p) => typeof p.payload.source !== 'string' || !/Helen/.test(String(p.payload.text))),
    'no point of any source names her',
  );
  assert.equal(
    chunkHolding(points, 'tomatoes').payload.speakers,
    'Lena, Mythos',
    'SillyTavern keeps its own',
  );

  await callOk(world, 'POST', '/forget', { bot: 'mythos', person: id, include_unsourced: true }, ownerKey);
  const left = await readAllPoints(world.storeUrl);
  assert.deepEqual(
    pointsHolding(left, 'tomatoes'),
    [],
    "the owner's person forget reaches SillyTavern's point",
  );
  assert.deepEqual(
    left.filter((p) => /Helen|Lena/.test(`${p.payload.text} ${p.payload.speakers}`)),
    [],
    'nothing of her anywhere',
  );
}

/** Saves one Telegram message of hers through `b` and flushes `b`: the stored chunk's text. */
export interface TelegramProbe {
  /** The text of the chunk holding the next probe message. */
  probe(): Promise<string>;
  /** How many probe messages were saved (each is hers, so forget-me counts them). */
  readonly count: number;
}

export function createTelegramProbe(world: PeopleWorld, b: Replica): TelegramProbe {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async probe() {
      count += 1;
      const words = `replica probe number ${count}`;
      const saved = await saveFromTelegram(b, [{ id: `tg-probe-${count}`, text: words, dm: false }]);
      assert.equal(saved.status, 200, JSON.stringify(saved.json));
      await b.flush();
      const [chunk] = await storedChunks(world, [words]);
      return String(chunk!.payload.text);
    },
  };
}

/**
 * Two replicas: after the link made on the first, the second (whose people cache was filled just before the
 * link) writes her next Telegram chunk under the person's name and widens her DM recall. Both are polled at
 * once; resolves with each time in ms after the redeem's answer. Fails past `deadlineMs`.
 */
export async function measureOtherReplica(
  b: Replica,
  probe: TelegramProbe,
  linkedAt: number,
  deadlineMs: number,
): Promise<{ namedMs: number; widenedMs: number }> {
  const probeName = async () =>
    /\nHelen: replica probe/.test(await probe.probe()) ? performance.now() - linkedAt : undefined;
  const probeDm = async () =>
    (await recallInTelegramDm(b, DM_QUERY)).some((text) => /locker code/.test(text))
      ? performance.now() - linkedAt
      : undefined;
  const [named, widened] = await Promise.all([
    until(probeName, deadlineMs, 'a new chunk on the other replica named after the person'),
    until(probeDm, deadlineMs, "the other replica's DM recall widened to her Discord DM"),
  ]);
  return { namedMs: named.value, widenedMs: widened.value };
}

/**
 * Her Telegram account unlinks itself (the Hermes plugin's key vouches for it): DM recall narrows at once on
 * both platforms. The owner then links it back, and recall widens again.
 */
export async function assertUnlinkNarrows(world: PeopleWorld, id: string): Promise<void> {
  await callOk(
    world,
    'DELETE',
    `/bots/mythos/people/${id}/accounts`,
    { account: { user_id: TELEGRAM } },
    hermesKey,
  );
  assert.doesNotMatch((await recallInTelegramDm(world.a, DM_QUERY)).join('\n'), /locker code/);
  assert.doesNotMatch(await recallInDiscordDm(world, DM_QUERY), /grey cat/);

  await callOk(world, 'PATCH', `/bots/mythos/people/${id}`, { add: [{ user_id: TELEGRAM }] }, ownerKey);
  assert.match((await recallInTelegramDm(world.a, DM_QUERY)).join('\n'), /locker code/);
}
