/** @module One JSON request to the in-process app with a key, answering the status and the parsed body. */
import type { Hono } from 'hono';
import type { ApiKeyConfig } from '../../config/config-types.js';
import type { ServiceEnv } from '../service-env.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
export type JsonAnswer = { status: number; json: any };

/** A caller of `app` whose requests default to `defaultKey`. */
export function createJsonCaller(app: () => Hono<ServiceEnv>, defaultKey: ApiKeyConfig) {
  return async (method: string, path: string, body?: unknown, key = defaultKey): Promise<JsonAnswer> => {
    const response = await app().request(path, {
      method,
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: await response.json() };
  };
}
