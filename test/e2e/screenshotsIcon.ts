// Renders the marketplace icon, media/icon.svg, to the 128×128 PNG that package.json's "icon" names
// (the marketplace and vsce take no SVG icon). Debian's Chromium draws it, so no image tool is needed.
// Run by scripts/screenshots.sh; alone: `node --import tsx test/e2e/screenshotsIcon.ts`.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './harness/browser';
import { repoRoot } from './harness/paths';

export const iconSvg = join(repoRoot, 'media', 'icon.svg');
export const iconPng = join(repoRoot, 'media', 'icon.png');
const size = 128;

export async function renderIcon(): Promise<void> {
  const svg = readFileSync(iconSvg, 'utf8');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    // The tile's rounded corners stay transparent: no page background behind the SVG.
    await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${svg}`);
    await page.locator('svg').screenshot({ path: iconPng, omitBackground: true });
  } finally {
    await browser.close();
  }
  console.log(`[screenshots] ${iconPng} (${statSync(iconPng).size} bytes)`);
}

if (process.argv[1] && /screenshotsIcon\.ts$/.test(process.argv[1])) {
  renderIcon().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
