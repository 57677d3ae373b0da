/**
 * @module `GET /ui`: the memory viewer's page and its two bundles, built by `npm run build` into dist/ui.
 * The page holds no memories, so it is served without a key (it asks for one); the loopback guard still
 * applies without keys. Strict headers: only this origin's script and style, no framing, no referrer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { MemoryPoolError } from '../../errors/memory-pool-error.js';
import type { ServiceEnv } from '../service-env.js';

/** The files the page is made of; nothing else under /ui is read from disk. */
const ASSETS: Readonly<Record<string, string>> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** dist/ui beside the compiled routes, or the repository's dist/ui when running from source (tests, `npm run dev`). */
function findUiDir(): string | undefined {
  const candidates = ['../../ui/', '../../../dist/ui/'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  );
  return candidates.find((dir) => existsSync(`${dir}index.html`));
}

/** True for the paths this module serves (they need no key). */
export const isUiPath = (path: string): boolean => path === '/ui' || path.startsWith('/ui/');

function readAsset(name: string): Buffer {
  const dir = findUiDir();
  if (dir === undefined) {
    throw new MemoryPoolError('ui_not_built', 'the memory viewer is not built: run `npm run build`', {
      status: 503,
    });
  }
  return readFileSync(`${dir}${name}`);
}

export function registerUiRoutes(app: Hono<ServiceEnv>): void {
  app.get('/ui', (c) =>
    c.body(new Uint8Array(readAsset('index.html')), 200, {
      'content-type': 'text/html; charset=utf-8',
      ...SECURITY_HEADERS,
    }),
  );
  app.get('/ui/:file', (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (type === undefined) return c.notFound();
    return c.body(new Uint8Array(readAsset(file)), 200, { 'content-type': type, ...SECURITY_HEADERS });
  });
}
