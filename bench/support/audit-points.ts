/**
 * @module The end-of-run check of a fault or load benchmark: scroll every point of each bot's collection
 * and compare the message ids they hold with the ids /save acknowledged.
 */
import type { Acknowledged } from './conversation-windows.js';

export interface AuditResult {
  readonly acknowledged: number;
  /** Acknowledged ids found in no point. */
  readonly lost: string[];
  /** Ids found in more than one point of their conversation. */
  readonly doubled: string[];
  readonly points: number;
}

interface ScrollPage {
  result: { points: { payload: Record<string, unknown> }[]; next_page_offset: unknown };
}

/** Scrolls all points of `collection` (bounded: 10,000 pages). */
async function scrollPayloads(storeUrl: string, collection: string): Promise<Record<string, unknown>[]> {
  const payloads: Record<string, unknown>[] = [];
  let offset: unknown;
  for (let page = 0; page < 10_000; page++) {
    const response = await fetch(`${storeUrl}/collections/${collection}/points/scroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 500, with_payload: true, with_vector: false, offset }),
    });
    if (response.status === 404) return payloads; // nothing was ever written
    if (!response.ok)
      throw new Error(`scroll ${collection}: HTTP ${response.status} ${await response.text()}`);
    const { result } = (await response.json()) as ScrollPage;
    for (const point of result.points) payloads.push(point.payload);
    offset = result.next_page_offset;
    if (offset === null || offset === undefined) return payloads;
  }
  throw new Error(`scroll ${collection}: more than 10,000 pages`);
}

/** Audits every bot in `collections` (bot name → collection). */
export async function auditPoints(
  storeUrl: string,
  collections: Record<string, string>,
  acknowledged: Acknowledged,
): Promise<AuditResult> {
  const lost: string[] = [];
  const doubled: string[] = [];
  let points = 0;
  for (const [bot, collection] of Object.entries(collections)) {
    // A conversation is bot + source + channel; ids are unique per source, so source/id names a message.
    const seen = new Map<string, number>();
    const payloads = await scrollPayloads(storeUrl, collection);
    points += payloads.length;
    for (const payload of payloads) {
      const ids = String(payload.messageIds ?? '').split(',');
      for (const id of ids) {
        const key = `${String(payload.source)}/${id}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    }
    for (const [key, count] of seen) if (count > 1) doubled.push(`${bot}:${key}`);
    for (const key of acknowledged.byBot.get(bot) ?? []) if (!seen.has(key)) lost.push(`${bot}:${key}`);
  }
  return { acknowledged: acknowledged.count, lost, doubled, points };
}

/** Prints the audit line; returns whether it is clean (nothing lost). */
export function printAudit(label: string, audit: AuditResult): boolean {
  console.log(
    `${label}: acknowledged ${audit.acknowledged}, lost ${audit.lost.length}, doubled ${audit.doubled.length} (${audit.points} points)`,
  );
  if (audit.lost.length > 0) console.log(`  lost, first ones: ${audit.lost.slice(0, 10).join(' ')}`);
  if (audit.doubled.length > 0) console.log(`  doubled, first ones: ${audit.doubled.slice(0, 10).join(' ')}`);
  return audit.lost.length === 0;
}
