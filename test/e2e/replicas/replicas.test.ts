/**
 * @module Three `memory-pool serve` replicas over one Postgres journal and one `memory-pool qdrant` store
 * (issue 24): overlapping windows sent round-robin, one replica SIGKILLed mid-burst and restarted; then every
 * acknowledged message is in exactly one point, a forget sent to one replica is final on all, and /retrieve
 * answers the same on all three.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import pg from 'pg';
import { auditPoints } from '../../../bench/support/audit-points.js';
import { Acknowledged, Conversation, type SaveBody } from '../../../bench/support/conversation-windows.js';
import { type EmbedderStandIn, startEmbedderStandIn } from '../../../bench/support/embedder-stand-in.js';
import { type TestPostgres, skipWithoutPostgres, startPostgres } from '../../../src/journal/test-support/start-postgres.js';
import { seededRandom } from '../../../src/runtime/seeded-random.js';
import { type ReplicaCluster, startReplicaCluster } from '../../../src/service/test-support/replica-cluster.js';
import type { BotStatsResponse } from '../../../src/wire/stats-response.js';
import { type ClusterClient, createClusterClient } from './cluster-client.js';

const BOT = 'mythos';

/** Chunk claims held by the process `pid` (holder ids are host:pid:random). */
async function countClaims(url: string, pid: number | undefined): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM chunk_claims WHERE holder LIKE $1', [`%:${pid}:%`]);
    return (rows[0] as { n: number }).n;
  } finally {
    await client.end();
  }
}
const COLLECTION = 'mem_replicas';
const SOURCE = 'api';
const EMBED_DELAY_MS = 200;
/**
 * journal.claimMs: a killed replica's claims expire after this, instead of the default 30 s the test would
 * otherwise wait out in settle(). Still many embedder calls long, so a live writer renews in time.
 */
const CLAIM_MS = 5_000;

describe('three replicas over one Postgres journal', { skip: skipWithoutPostgres }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-replicas-'));
  let postgres: TestPostgres;
  let databaseUrl: string;
  let cluster: ReplicaCluster;
  let standIn: EmbedderStandIn;
  let client: ClusterClient;
  const acknowledged = new Acknowledged();
  const textOf = new Map<string, string>();
  const remember = (body: SaveBody) => {
    for (const message of body.messages) textOf.set(message.message_id, message.text);
    return body;
  };
  const random = seededRandom(24);
  const conversations = ['c0', 'c1', 'c2', 'c3'].map((channel) => new Conversation(BOT, SOURCE, channel, random));

  before(async () => {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase('replicas');
    // A remote embedder's latency, so a chunk write (and its claim) lasts long enough to be caught by the kill.
    standIn = await startEmbedderStandIn(EMBED_DELAY_MS, 64);
    cluster = await startReplicaCluster({
      dir,
      replicas: 3,
      postgresUrl: databaseUrl,
      claimMs: CLAIM_MS,
      embedding: { provider: 'openai-compatible', baseUrl: standIn.baseUrl, model: 'stand-in', dimensions: 64 },
      // Small chunks that close on size while the burst runs, so writes are in flight when a replica dies.
      bots: {
        [BOT]: {
          selfSpeaker: 'Mythos',
          collection: COLLECTION,
          chunk: { minChars: 200, maxChars: 400, idleMs: 500 },
          retrieve: { limit: 5, scoreThreshold: 0.1 },
        },
      },
    });
    client = createClusterClient(cluster.replicas);
  });
  after(async () => {
    await cluster?.close();
    standIn?.close();
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Waits until no replica's journal has a message or chunk waiting (they share one), or fails naming what waits. */
  async function settle(): Promise<void> {
    let stats: BotStatsResponse | undefined;
    for (let attempt = 0; attempt < 480; attempt += 1) {
      stats = await client.stats(BOT);
      if (stats.messages.pending === 0 && stats.chunks.planned === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.fail(`the replicas did not finish writing within 120 s (a killed writer's claims expire after ${CLAIM_MS} ms): ${JSON.stringify(stats)}`);
  }

  const scrollTexts = async (): Promise<{ text: string; messageIds: string }[]> => {
    const { points } = await new QdrantClient({ url: cluster.storeUrl, checkCompatibility: false }).scroll(
      COLLECTION,
      { limit: 10_000, with_payload: true, with_vector: false },
    );
    return points.map((point) => ({
      text: String(point.payload?.text),
      messageIds: String(point.payload?.messageIds),
    }));
  };

  test('overlapping windows round-robin, one replica SIGKILLed mid-burst: every acknowledged message in exactly one point', async (t) => {
    const victim = cluster.replicas[1]!;
    let turns = 0;
    const sendTurn = () =>
      Promise.all(
        conversations.map(async (conversation) => {
          const body = remember(conversation.nextWindow(2));
          // Every third turn two replicas get the same window at the same moment, as two tabs (or a retry) do.
          const sends = turns % 3 === 0 ? [client.save(body), client.save(body)] : [client.save(body)];
          for (const saved of await Promise.all(sends)) if (saved) acknowledged.add(body);
        }),
      ).then(() => {
        turns += 1;
      });
    for (let turn = 0; turn < 8; turn += 1) await sendTurn();
    // The victim dies while it holds chunk claims (a write in flight), when the burst gives it one soon: the
    // slow embedder keeps each claimed batch open for a while. Whether it did is said, not asserted (timing).
    const victimPid = victim.pid;
    for (let turn = 0; turn < 30 && (await countClaims(databaseUrl, victimPid)) === 0; turn += 1) {
      await Promise.all([sendTurn(), new Promise((resolve) => setTimeout(resolve, 50))]);
    }
    // Killed while a turn's saves are in flight too, then started again at once.
    const turn = sendTurn();
    let back: boolean | Error = false;
    const restarting = victim
      .kill()
      .then(async () => {
        t.diagnostic(`the killed replica left ${await countClaims(databaseUrl, victimPid)} chunk claims behind`);
      })
      .then(() => victim.start())
      .then(
        () => {
          back = true;
        },
        (error: Error) => {
          back = error;
        },
      );
    await turn;
    // The burst goes on while it restarts (its share goes to the other two), and for a while after.
    while (back === false) await Promise.all([sendTurn(), new Promise((resolve) => setTimeout(resolve, 200))]);
    for (let turn = 0; turn < 8; turn += 1) await sendTurn();
    await restarting;
    // `back` is set from the restart's callbacks, which TypeScript's narrowing does not follow.
    if ((back as boolean | Error) instanceof Error) throw back;
    assert.ok(cluster.replicas.every((replica) => replica.running), 'every replica runs again');
    await settle();
    const audit = await auditPoints(cluster.storeUrl, { [BOT]: COLLECTION }, acknowledged);
    assert.equal(audit.acknowledged, conversations.length * turns * 2, 'every message was acknowledged at least once');
    assert.deepEqual(audit.lost, [], 'no acknowledged message is missing from the store');
    assert.deepEqual(audit.doubled, [], 'no message is in two points');
  });

  test('a forget sent to one replica is final on all three, even racing a write on another', async () => {
    const [old, racing] = [conversations[1]!, conversations[2]!];
    const forgottenOld = 'c1-13';
    const window = remember(racing.nextWindow(2));
    const forgottenNew = window.messages.at(-1)!.message_id;
    // The new message is saved on replica 0 and forgotten on replica 2 while replica 0 may be writing its chunk.
    const [saved, forgot] = await Promise.all([
      client.saveOn(0, window),
      client.forgetOn(2, { bot: BOT, source: SOURCE, message_ids: [forgottenOld, forgottenNew] }),
    ]);
    assert.equal(saved.status, 200);
    assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
    // Re-sending a window that holds a forgotten message (SillyTavern does) must not bring it back.
    const resent = await client.saveOn(1, old.nextWindow(0));
    assert.equal(resent.status, 200);
    await settle();
    const texts = [textOf.get(forgottenOld)!, textOf.get(forgottenNew)!];
    for (const point of await scrollTexts()) {
      const ids = point.messageIds.split(',');
      assert.ok(!ids.includes(forgottenOld) && !ids.includes(forgottenNew), `a point still holds it: ${point.messageIds}`);
      for (const text of texts) assert.ok(!point.text.includes(text), `a point still reads "${text}"`);
    }
    for (const replica of cluster.replicas) {
      for (const text of texts) {
        const { hits } = await client.retrieveOn(replica.index, { bot: BOT, query_text: text, limit: 20 });
        for (const hit of hits) {
          assert.ok(!hit.text.includes(text), `replica ${replica.index} recalls the forgotten "${text}"`);
        }
      }
    }
  });

  test('/retrieve answers the same on all three', async () => {
    for (const query of ['the night train to Vienna', 'my sister Anna in Lisbon', 'a broken bicycle chain']) {
      const answers = await Promise.all(
        cluster.replicas.map((replica) => client.retrieveOn(replica.index, { bot: BOT, query_text: query })),
      );
      assert.ok(answers[0]!.hits.length > 0, `"${query}" recalls something`);
      assert.deepEqual(answers[1], answers[0], `replica 1 answers "${query}" as replica 0`);
      assert.deepEqual(answers[2], answers[0], `replica 2 answers "${query}" as replica 0`);
    }
  });
});
