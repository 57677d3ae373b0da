/**
 * @module The replicas test's client: a load balancer's round robin over the replicas (a refused or broken
 * connection moves on to the next one, as a balancer's retry does), plus calls to one named replica.
 */
import type { Replica } from '../../../src/service/test-support/replica-cluster.js';
import type { RetrieveResponse } from '../../../src/wire/retrieve-request.js';
import type { BotStatsResponse } from '../../../src/wire/stats-response.js';

export interface ClusterClient {
  /** Sends `body` to /save on the next replica in turn; true when one answered 200 (the messages are acknowledged). */
  save(body: unknown): Promise<boolean>;
  saveOn(index: number, body: unknown): Promise<{ status: number; json: unknown }>;
  forgetOn(index: number, body: unknown): Promise<{ status: number; json: unknown }>;
  /** /retrieve on one replica; fails the test on anything but 200. */
  retrieveOn(index: number, body: unknown): Promise<RetrieveResponse>;
  /** GET /bots/{bot}/stats from the first running replica (they share one journal). */
  stats(bot: string): Promise<BotStatsResponse>;
}

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, json: await response.json() };
}

export function createClusterClient(replicas: readonly Replica[]): ClusterClient {
  let next = 0;
  const on = (index: number) => replicas[index]!;
  return {
    async save(body) {
      const first = next;
      next = (next + 1) % replicas.length;
      for (let step = 0; step < replicas.length; step += 1) {
        const replica = on((first + step) % replicas.length);
        if (!replica.running) continue;
        try {
          const { status } = await post(`${replica.url}/save`, body);
          if (status === 200) return true;
        } catch {
          // Killed while answering, or not listening yet: the balancer tries the next replica.
        }
      }
      return false;
    },
    saveOn: (index, body) => post(`${on(index).url}/save`, body),
    forgetOn: (index, body) => post(`${on(index).url}/forget`, body),
    async retrieveOn(index, body) {
      const { status, json } = await post(`${on(index).url}/retrieve`, body);
      if (status !== 200) throw new Error(`replica ${index} /retrieve answered ${status}: ${JSON.stringify(json)}`);
      return json as RetrieveResponse;
    },
    async stats(bot) {
      const replica = replicas.find((candidate) => candidate.running);
      if (replica === undefined) throw new Error('no replica is running');
      const response = await fetch(`${replica.url}/bots/${bot}/stats`);
      return (await response.json()) as BotStatsResponse;
    },
  };
}
