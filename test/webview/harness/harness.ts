/**
 * Loads the built panel (dist/webview.js) into real headless Chromium behind the same CSP the
 * view provider uses, with a fake `acquireVsCodeApi`. Tests post HostMessages in and read the
 * WebviewMessages the panel posted out.
 */
import { after, before } from 'node:test';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import type { HostMessage, WebviewMessage } from '../../../src/protocol/messages';
import type { VersionMismatchMessage } from '../../../src/protocol/versionHandshake';

const root = resolve(__dirname, '../../..');
const harnessDir = __dirname;
export const NONCE = 'tandemTestNonce0123456789';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

/** The CSP the view provider must send (with its cspSource in place of this server's origin). */
/** The VS Code themes the harness can show the panel in (test/webview/harness/themes/). */
export type ThemeName = 'dark' | 'light' | 'hc-dark' | 'hc-light';
export const THEMES: readonly ThemeName[] = ['dark', 'light', 'hc-dark', 'hc-light'];

/** The body classes VS Code gives a webview in each kind of theme (`vscode-high-contrast` also for the light one). */
const THEME_CLASSES: Record<ThemeName, { kind: string; classes: string }> = {
  dark: { kind: 'vscode-dark', classes: 'vscode-dark' },
  light: { kind: 'vscode-light', classes: 'vscode-light' },
  'hc-dark': { kind: 'vscode-high-contrast', classes: 'vscode-high-contrast' },
  'hc-light': { kind: 'vscode-high-contrast-light', classes: 'vscode-high-contrast-light vscode-high-contrast' },
};

export function contentSecurityPolicy(source: string, nonce: string): string {
  return ["default-src 'none'", `img-src ${source} data:`, `style-src ${source} 'nonce-${nonce}'`, `font-src ${source}`, `script-src 'nonce-${nonce}'`].join(
    '; ',
  );
}

async function buildBundle(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs'], { cwd: root });
  } catch (error) {
    // Other parts of the tree may be mid-edit; the webview bundle alone is what these tests need.
    console.warn('scripts/build.mjs failed; building the webview bundle alone', error);
    const esbuild = await import('esbuild');
    await esbuild.build({
      absWorkingDir: root,
      bundle: true,
      entryPoints: ['webview/highlighter/main.ts'],
      outfile: 'dist/codeHighlighter.js',
      platform: 'browser',
      format: 'iife',
      target: 'chrome120',
      logLevel: 'warning',
    });
    await esbuild.build({
      absWorkingDir: root,
      bundle: true,
      sourcemap: 'linked',
      entryPoints: ['webview/app/main.ts'],
      outfile: 'dist/webview.js',
      platform: 'browser',
      format: 'iife',
      target: 'chrome120',
      loader: { '.css': 'text', '.ttf': 'dataurl' },
      logLevel: 'warning',
    });
  }
}

function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let file: string | undefined;
    if (url.pathname === '/' || url.pathname === '/index.html') file = join(harnessDir, 'index.html');
    else if (url.pathname.startsWith('/harness/')) file = join(harnessDir, normalize(url.pathname.slice('/harness/'.length)));
    else if (url.pathname.startsWith('/dist/') || url.pathname.startsWith('/media/')) file = join(root, normalize(url.pathname.slice(1)));
    if (!file || (!file.startsWith(harnessDir) && !file.startsWith(join(root, 'dist')) && !file.startsWith(join(root, 'media')))) {
      res.writeHead(404).end();
      return;
    }
    try {
      let body: Buffer | string = readFileSync(file);
      const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' };
      if (file.endsWith('index.html')) {
        // ?language=zh-cn serves the page as VS Code in that display language would: l10n/'s bundle.
        const language = url.searchParams.get('language') ?? 'en';
        const bundleFile = join(root, 'l10n', `bundle.l10n.${language}.json`);
        const locale =
          language !== 'en' && existsSync(bundleFile) ? { language, bundle: JSON.parse(readFileSync(bundleFile, 'utf8')) as unknown } : { language };
        const requested = url.searchParams.get('theme');
        const theme: ThemeName = THEMES.find((t) => t === requested) ?? 'dark';
        body = body
          .toString('utf8')
          .replaceAll('{{NONCE}}', NONCE)
          .replaceAll('{{LANG}}', language)
          .replaceAll('{{THEME}}', theme)
          .replaceAll('{{THEME_CLASS}}', THEME_CLASSES[theme].classes)
          .replaceAll('{{THEME_KIND}}', THEME_CLASSES[theme].kind)
          .replaceAll('{{LOCALE}}', JSON.stringify(locale).replace(/</g, '\\u003c'));
        headers['content-security-policy'] = contentSecurityPolicy(`http://127.0.0.1:${(server.address() as { port: number }).port}`, NONCE);
      }
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolveServer) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolveServer({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

export interface Panel {
  page: Page;
  /** Messages logged with console.error and uncaught page errors. */
  errors: string[];
  post(message: HostMessage | VersionMismatchMessage): Promise<void>;
  /** Posts many messages in one go, from inside the page (like a burst from the host). */
  postMany(messages: HostMessage[]): Promise<void>;
  /** Waits until the panel has painted what was posted (two animation frames). */
  settle(): Promise<void>;
  posted(): Promise<WebviewMessage[]>;
  clearPosted(): Promise<void>;
  violations(): Promise<string[]>;
}

export interface Harness {
  /**
   * `language` is VS Code's display language, e.g. `zh-cn`: the panel gets that bundle of l10n/.
   * `theme`: the VS Code theme whose variables the page gets (default Dark Modern).
   * `path`: another page of the harness (e.g. `/harness/inspector/index.html`, the protocol inspector).
   */
  open(options?: { width?: number; height?: number; language?: string; theme?: ThemeName; path?: string }): Promise<Panel>;
  close(): Promise<void>;
}

export async function launchHarness(): Promise<Harness> {
  await buildBundle();
  const { server, origin } = await serve();
  const userDataDir = mkdtempSync(join(tmpdir(), 'tandem-chromium-'));
  // Playwright owns --user-data-dir: a persistent context on a temp dir is the supported way to set it.
  const context: BrowserContext = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    async open(options = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 420, height: options.height ?? 800 });
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      const query = new URLSearchParams();
      if (options.language) query.set('language', options.language);
      if (options.theme) query.set('theme', options.theme);
      await page.goto(`${origin}${options.path ?? '/'}${query.size > 0 ? `?${query}` : ''}`);
      await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
      const settle = (): Promise<void> => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
      return {
        page,
        errors,
        async post(message) {
          // As a JSON string: Playwright's own serialisation of a big object costs far more than JSON.parse.
          await page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message));
          await settle();
        },
        async postMany(messages) {
          await page.evaluate((ms) => {
            for (const m of ms) window.postMessage(m, '*');
          }, messages);
          // postMessage events are queued tasks: wait for them, then for the frame that paints them.
          await page.evaluate(() => new Promise<void>((r) => setTimeout(r, 0)));
          await settle();
        },
        settle,
        posted: () => page.evaluate(() => (window as unknown as { __posted: WebviewMessage[] }).__posted),
        clearPosted: () => page.evaluate(() => void ((window as unknown as { __posted: unknown[] }).__posted.length = 0)),
        violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      };
    },
    async close() {
      await context.close();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One Chromium for the calling test file: launched before its tests, closed after them. Returns a
 * getter, since the harness exists only once the `before` hook ran.
 */
export function useHarness(): () => Harness {
  let harness: Harness | undefined;
  before(async () => {
    harness = await launchHarness();
  });
  after(async () => {
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the harness is not launched (useHarness before hook did not run)');
    return harness;
  };
}
