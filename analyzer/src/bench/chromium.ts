import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's `chromium` package (installed by .ci/run), unless CHROMIUM_PATH names another build. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`${path} not found: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return path;
}

/** Headless Chromium; no browser is downloaded (playwright-core drives the system one). */
export function launchChromium(): Promise<Browser> {
  // The sandbox needs user namespaces, which CI's root containers do not offer.
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
}

/**
 * Open an HTML report from a file:// URL and wait until it has drawn: the load event, every
 * chart marked drawn (or failed), then two animation frames so layout and paint are done.
 * Resolves to the milliseconds from navigation to drawn.
 */
export async function openReport(page: Page, file: string, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: timeoutMs });
  // Page-side code as strings: this package compiles without the DOM's types.
  await page.waitForFunction(`[...document.querySelectorAll('[data-chart]')].every((e) => e.dataset.drawn !== undefined || /could not be drawn/.test(e.textContent))`, undefined, { timeout: timeoutMs });
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  return performance.now() - started;
}
