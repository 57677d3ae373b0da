/**
 * @module The page's one way to reach the service: same origin, the key (when the service has keys) from
 * this tab's sessionStorage in the Authorization header, never in a URL, never logged.
 */

const KEY_ITEM = 'memory-pool.key';

/** An answer of the API's error shape, `{ error: { code, message, field? } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const readKey = (): string | null => sessionStorage.getItem(KEY_ITEM);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY_ITEM, key);
export const dropKey = (): void => sessionStorage.removeItem(KEY_ITEM);

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const key = readKey();
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: 'omit',
    cache: 'no-store',
  });
  const json = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  if (!response.ok && !(path === '/ready' && response.status === 503)) {
    throw new ApiError(
      response.status,
      json.error?.code ?? 'http_error',
      json.error?.message ?? `${method} ${path} answered ${response.status}`,
    );
  }
  return json as T;
}

export const getJson = <T>(path: string): Promise<T> => call<T>('GET', path);
export const postJson = <T>(path: string, body: unknown): Promise<T> => call<T>('POST', path, body);
export const putJson = <T>(path: string, body: unknown): Promise<T> => call<T>('PUT', path, body);

/** `/bots/{bot}/...` with the bot name escaped. */
export const botPath = (bot: string, rest: string): string => `/bots/${encodeURIComponent(bot)}/${rest}`;
export const patchJson = <T>(path: string, body: unknown): Promise<T> => call<T>('PATCH', path, body);
export const deleteJson = <T>(path: string): Promise<T> => call<T>('DELETE', path);
