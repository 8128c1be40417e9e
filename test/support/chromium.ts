import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

/** Debian's Chromium, which playwright-core drives (it downloads no browser of its own); AGENTCTX_CHROMIUM overrides it. */
export const CHROMIUM_PATH: string = process.env['AGENTCTX_CHROMIUM'] || '/usr/bin/chromium';

/** Launch flags for a headless Chromium in a container (deps.md §7); playwright adds --headless itself. */
export const CHROMIUM_ARGS: string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function hasChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** A visible skip with the reason and the way to run them, for a test file whose browser is not installed. */
export function skipWithoutChromium(title: string): void {
  const reason = `${title}: SKIPPED, no Chromium at ${CHROMIUM_PATH} (install it with \`apt-get install -y chromium fonts-ipafont-gothic\`, which .ci/run does as root)`;
  console.warn(reason);
  describe.skip(reason, () => {
    it('needs Chromium', () => {});
  });
}

/**
 * Chromium with one page, and the problems the page reports (script errors, console errors, refused loads) collected
 * as they come, so a test can end with `expect(problems).toEqual([])`.
 */
export async function launchPage(
  viewport = { width: 1400, height: 1000 },
): Promise<{ browser: Browser; page: Page; problems: string[] }> {
  const problems: string[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Refused to/.test(message.text()))
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  return { browser, page, problems };
}
