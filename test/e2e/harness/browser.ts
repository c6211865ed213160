// Debian's Chromium driven by playwright-core (Playwright's own browser download cannot work here).
// Playwright gives every launch a fresh, temporary user-data-dir and removes it on close.
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { chromiumPath, requireFile } from './paths';

/** Flags from the recipe: without the background-networking ones Chromium hammers a closed network. */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  requireFile(chromiumPath, 'run `bash scripts/setupE2e.sh` (installs Debian chromium)');
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs],
    // Playwright kills the browser on SIGINT/SIGTERM/exit of this process.
    handleSIGINT: true,
    handleSIGTERM: true,
    handleSIGHUP: true,
  });
}
