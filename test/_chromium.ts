/** Headless Chromium for the tests that need a real browser (CORS, CSP, the documentation site). */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Starts headless Chromium, with `args` beside the usual ones; a clear error when it is missing. */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(chromium)) {
    throw new Error(
      `No Chromium at ${chromium}: install Debian's chromium package (.ci/run does) or set CHROMIUM_PATH.`,
    );
  }
  return puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: [
      ...args,
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
    ],
  });
}
