import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

// Debian's Chromium (`apt-get install chromium`; .ci/run installs it), or CHROMIUM_PATH.
// Starting it takes seconds. Without it the browser specs are skipped with a warning, as the
// GNU comparisons are without GNU tools.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium is there to run the browser specs. */
export const hasChromium = existsSync(chromiumPath);
if (!hasChromium) console.warn(`browser specs: no Chromium at ${chromiumPath}; skipped`);

/** The size of every page the browser specs open. */
export const viewport = { width: 1000, height: 700 };

/** Chromium, headless, without the network chatter of a first run. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** One Chromium for the specs of a file: launched before them, closed after. */
export function sharedChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (hasChromium) browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  }, 60_000);
  return () => {
    if (browser === undefined) throw new Error('Chromium is not running');
    return browser;
  };
}
