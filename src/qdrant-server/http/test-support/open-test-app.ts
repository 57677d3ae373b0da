/** @module Test helper: the Qdrant app over a real engine in a fresh temp folder, driven in-process with `app.request()`. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreEngine } from '../../engine/engine-api.js';
import { openStoreEngine } from '../../engine/index.js';
import { createQdrantApp } from '../qdrant-app.js';

export interface TestReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary response shapes.
  readonly json: any;
}

export interface TestApp {
  /** The engine behind the app, to compare an answer with what the engine itself returns. */
  readonly engine: StoreEngine;
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  close(): void;
}

/** Opens an app; `keys` switch auth on, `corsOrigins` are passed through. Call `close()` in `after`. */
export function openTestApp(
  keys: { apiKey?: string; readOnlyApiKey?: string; corsOrigins?: readonly string[] } = {},
): TestApp {
  const dataDir = mkdtempSync(join(tmpdir(), 'mp-qdrant-http-'));
  const engine = openStoreEngine({ dataDir });
  const app = createQdrantApp({ engine, ...keys });
  return {
    engine,
    async send(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await app.request(`http://localhost${path}`, init);
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    close() {
      engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
