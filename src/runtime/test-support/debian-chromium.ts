/**
 * @module Debian's Chromium for the browser tests (playwright-core cannot download a browser here): where it is,
 * whether the tests run without it, and the flags it needs on this kind of machine.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { readEnv } from '../read-env.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * `false` to run, or why the browser tests are skipped: only when Chromium is missing outside CI
 * (MEMORY_POOL_REQUIRE_BROWSER=1, which CI sets, makes a missing browser a failure instead).
 */
export const skipWithoutChromium: string | false =
  !existsSync(CHROMIUM_PATH) && readEnv(process.env, 'MEMORY_POOL_REQUIRE_BROWSER') !== '1'
    ? `needs ${CHROMIUM_PATH} (apt-get install chromium)`
    : false;

/** Launches headless Chromium; `hostRules` maps test host names (e.g. `MAP evil.test 127.0.0.1`). */
export function launchChromium(hostRules = ''): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      ...(hostRules ? [`--host-resolver-rules=${hostRules}`] : []),
    ],
  });
}
