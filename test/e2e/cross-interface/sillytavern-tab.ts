/**
 * @module A SillyTavern tab for cross-interface tests: headless Chromium on a loopback page (SillyTavern's
 * origin) running st-qdrant-memory's own store calls, written from its source as the store's browser test runs
 * them (st-qdrant-memory.md): its save (the 0.92 duplicate search, then PUT points without `wait`) and its
 * recall (search at 0.3, the recent-id and near-duplicate filters, the `[Past chat memories]` block).
 * The extension's embedding provider is the caller's: vectors are handed in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../src/runtime/test-support/debian-chromium.js';

/** One chunk as the extension writes it. */
export interface StChunk {
  readonly id: string;
  readonly vector: readonly number[];
  readonly text: string;
  readonly speakers: readonly string[];
  readonly messageIds: readonly string[];
  readonly timestamp: number;
}

export interface StRecall {
  /** The block the extension injects, "" when nothing passed. */
  readonly block: string;
  readonly texts: string[];
}

export interface SillyTavernTab {
  /** st-qdrant-memory's save of one chunk; false when its duplicate check dropped it. */
  save(chunk: StChunk): Promise<boolean>;
  /** st-qdrant-memory's recall for the last user message's vector, skipping the chat's recent message ids. */
  recall(vector: readonly number[], recentMessageIds?: readonly string[]): Promise<StRecall>;
  close(): Promise<void>;
}

interface PageArgs {
  readonly url: string;
  readonly collection: string;
}

/** Runs in the page: the extension's `saveChunk` (duplicate search, then an un-waited PUT). */
async function saveInPage(args: PageArgs & { chunk: StChunk }): Promise<boolean> {
  const headers = { 'Content-Type': 'application/json' };
  const base = `${args.url}/collections/${args.collection}`;
  const duplicates = await fetch(`${base}/points/search`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ vector: args.chunk.vector, limit: 1, score_threshold: 0.92, with_payload: true }),
  }).then((response) => response.json() as Promise<{ result: unknown[] }>);
  if (duplicates.result.length > 0) return false;
  const response = await fetch(`${base}/points`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      points: [
        {
          id: args.chunk.id,
          vector: args.chunk.vector,
          payload: {
            text: args.chunk.text,
            speakers: args.chunk.speakers.join(', '),
            messageCount: args.chunk.messageIds.length,
            timestamp: args.chunk.timestamp,
            messageIds: args.chunk.messageIds.join(','),
            isChunk: true,
          },
        },
      ],
    }),
  });
  return response.ok;
}

/** Runs in the page: the extension's recall with memoryLimit 5, and the block it injects. */
async function recallInPage(
  args: PageArgs & { vector: readonly number[]; recentMessageIds: readonly string[] },
): Promise<StRecall> {
  const memoryLimit = 5;
  type Hit = { score: number; payload: { text: string; speakers?: string; messageIds?: string } };
  const found = await fetch(`${args.url}/collections/${args.collection}/points/search`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      vector: args.vector,
      limit: memoryLimit * 2,
      score_threshold: 0.3,
      with_payload: true,
    }),
  }).then((response) => response.json() as Promise<{ result: Hit[] }>);
  const recent = new Set(args.recentMessageIds);
  const seen = new Set<string>();
  const kept: Hit[] = [];
  for (const hit of found.result) {
    const ids = String(hit.payload.messageIds ?? '')
      .split(',')
      .map((id) => id.trim());
    if (ids.some((id) => recent.has(id))) continue;
    const key = String(hit.payload.text)
      .replace(/\[[\d-]+\]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(hit);
  }
  const hits = kept.slice(0, memoryLimit);
  if (hits.length === 0) return { block: '', texts: [] };
  const lines = hits.map(
    (hit) =>
      `• Conversation (${hit.payload.speakers}): "${hit.payload.text.replace(/\n/g, ' ')}" (score: ${(hit.score * 100).toFixed(0)}%)\n\n`,
  );
  return { block: `\n[Past chat memories]\n\n${lines.join('')}`, texts: hits.map((hit) => hit.payload.text) };
}

/** Opens Chromium on a loopback page of its own, talking to the store at `url`, collection `collection`. */
export async function openSillyTavernTab(url: string, collection: string): Promise<SillyTavernTab> {
  const pages: Server = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>SillyTavern</title>'),
  );
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const tab: Page = await browser.newPage();
    // The test runner's transform names functions through `__name`; evaluated functions carry those calls.
    await tab.addInitScript('globalThis.__name = (fn) => fn;');
    await tab.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);
    const opened = browser;
    return {
      save: (chunk) => tab.evaluate(saveInPage, { url, collection, chunk }),
      recall: (vector, recentMessageIds = []) =>
        tab.evaluate(recallInPage, { url, collection, vector, recentMessageIds }),
      close: async () => {
        await opened.close();
        await new Promise((resolve) => pages.close(resolve));
      },
    };
  } catch (error) {
    await browser?.close();
    await new Promise((resolve) => pages.close(resolve));
    throw error;
  }
}
