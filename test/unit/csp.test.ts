/**
 * The panel's Content-Security-Policy, as renderWebviewHtml really produces it: parsed and checked
 * directive by directive, then enforced by real Chromium on the real page (assets served locally).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type * as vscode from 'vscode';
import { renderWebviewHtml } from '../../src/vscode/core/webviewHtml';

const root = resolve(__dirname, '../..');
const CSP_SOURCE = 'https://tandem-webview.vscode-cdn.net';

/** Just enough of vscode.Uri / vscode.Webview for renderWebviewHtml (it only joins and maps paths). */
interface FakeUri {
  path: string;
  toString(): string;
}
const uri = (path: string): FakeUri => ({ path, toString: () => path });

function render(source = CSP_SOURCE, mapAsset: (path: string) => string = (p) => `${source}${p}`): string {
  const webview = { cspSource: source, asWebviewUri: (u: FakeUri) => uri(mapAsset(u.path)) };
  const join = (base: FakeUri, ...parts: string[]): FakeUri => uri([base.path, ...parts].join('/'));
  return renderWebviewHtml(
    webview as unknown as vscode.Webview,
    uri('/ext') as unknown as vscode.Uri,
    join as unknown as (b: vscode.Uri, ...p: string[]) => vscode.Uri,
  );
}

function cspOf(html: string): Map<string, string[]> {
  const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)];
  assert.equal(metas.length, 1, 'exactly one CSP meta tag');
  const policy = new Map<string, string[]>();
  for (const part of metas[0][1].split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    assert.ok(!policy.has(name), `directive ${name} appears once`);
    policy.set(name.toLowerCase(), values);
  }
  return policy;
}

test('CSP: default-src none, scripts only by nonce, no unsafe-inline/eval scripts, no remote origins', () => {
  const html = render();
  const csp = cspOf(html);
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  const scripts = csp.get('script-src');
  assert.ok(scripts, 'script-src is set (not left to default-src)');
  assert.equal(scripts.length, 1, `script-src has only the nonce: ${scripts.join(' ')}`);
  assert.match(scripts[0], /^'nonce-[A-Za-z0-9+/=]+'$/);
  for (const [name, values] of csp) {
    for (const v of values) {
      if (/^script-src|^default-src|^worker-src|^object-src/.test(name)) {
        assert.ok(!["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", "'strict-dynamic'"].includes(v), `${name} allows ${v}`);
      }
      // Only the webview's own resource origin, data: for images/fonts, keywords and the nonce.
      const allowed = v === CSP_SOURCE || v === 'data:' || /^'(none|self|unsafe-inline|nonce-[A-Za-z0-9+/=]+)'$/.test(v);
      assert.ok(allowed, `${name} allows ${v}`);
      assert.ok(!v.includes('*') && !/^https?:$/.test(v) && v !== 'blob:' && v !== 'filesystem:', `${name} allows the wildcard/scheme source ${v}`);
    }
  }
  // 'unsafe-inline' styles are deliberate (xterm and web components set inline styles); never for scripts.
  for (const name of ['script-src', 'script-src-elem', 'script-src-attr']) assert.ok(!csp.get(name)?.includes("'unsafe-inline'"));
  for (const name of ['frame-src', 'child-src', 'object-src', 'connect-src', 'worker-src', 'form-action', 'base-uri']) {
    // Not listed means default-src 'none' applies (form-action/base-uri excepted, see below).
    if (csp.has(name)) assert.deepEqual(csp.get(name), ["'none'"], `${name} is restricted`);
  }
});

test('CSP: every <script> carries the nonce, the nonce is long and new on every render', () => {
  const nonces = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const html = render();
    const nonce = /'nonce-([^']+)'/.exec(cspOf(html).get('script-src')![0])![1];
    assert.ok(Buffer.from(nonce, 'base64').length >= 16, `nonce ${nonce} has at least 128 bits`);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)];
    assert.ok(scripts.length >= 1);
    for (const s of scripts) assert.match(s[1], new RegExp(`\\bnonce="${nonce.replace(/[+/=]/g, (c) => `\\${c}`)}"`), `script without the nonce: ${s[0]}`);
    // No inline script code: the nonce'd script loads the bundle. The one body allowed is the
    // language's JSON data block, which browsers never execute.
    for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      if (/\btype="application\/json"/.test(m[1])) JSON.parse(m[2]);
      else assert.equal(m[2].trim(), '', 'inline script code');
    }
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'inline event handler in the page');
    nonces.add(nonce);
  }
  assert.equal(nonces.size, 50, 'a nonce was reused');
});

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html; charset=utf-8' };

/** Serves the rendered page at / and dist/ + media/ as the webview's resource origin would. */
function serve(page: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': TYPES['.html'] }).end(page());
      return;
    }
    const file = join(root, normalize(path));
    if (!(file.startsWith(join(root, 'dist')) || file.startsWith(join(root, 'media')))) {
      res.writeHead(404).end();
      return;
    }
    try {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

test('Chromium enforces the real page CSP: the bundle runs, injected scripts and handlers without the nonce do not', { timeout: 60_000 }, async () => {
  let origin = '';
  const { server, origin: o } = await serve(() => {
    // The real HTML, with the local server as the webview resource origin; a probe of what an
    // injection would look like is appended to the body: inline script, handler, remote script.
    const html = render(origin, (p) => `${origin}${p.replace(/^\/ext/, '')}`);
    return html.replace(
      '</body>',
      `<script>window.__ran.push('inline')</script>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="window.__ran.push('handler')" onerror="window.__ran.push('handler')">
<script src="https://example.invalid/evil.js"></script>
<script nonce="guessed-nonce">window.__ran.push('wrong-nonce')</script>
</body>`,
    );
  });
  origin = o;
  const userDataDir = mkdtempSync(join(tmpdir(), 'tandem-csp-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(`window.__ran = []; window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
      window.acquireVsCodeApi = () => ({ postMessage: (m) => (window.__posted = (window.__posted || []).concat([m])), getState: () => undefined, setState: () => undefined });`);
    await page.goto(`${origin}/`);
    // The nonce'd bundle ran: the panel posted `ready` and rendered.
    await page.waitForFunction(() => Array.isArray((window as unknown as { __posted?: unknown[] }).__posted), undefined, { timeout: 15_000 });
    await page.waitForSelector('.tandem');
    // A script added at run time without the nonce is blocked too.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = "window.__ran.push('dynamic')";
      document.body.append(s);
      const d = document.createElement('div');
      d.setAttribute('onclick', "window.__ran.push('dynamic-handler')");
      document.body.append(d);
      d.click();
    });
    // Both were refused synchronously (an allowed one would have run before evaluate returned); the
    // violation reports are queued events, awaited rather than slept for.
    await page.waitForFunction(() => {
      const violations = (window as unknown as { __violations: string[] }).__violations;
      return ['script-src-elem inline', 'script-src-attr inline', 'script-src-elem https://example.invalid'].every((d) =>
        violations.some((v) => v.startsWith(d)),
      );
    });
    const ran = await page.evaluate(() => (window as unknown as { __ran: string[] }).__ran);
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    assert.deepEqual(ran, [], 'a script without the nonce ran');
    assert.ok(
      violations.some((v) => v.startsWith('script-src-elem inline')),
      violations.join('\n'),
    );
    assert.ok(
      violations.some((v) => v.startsWith('script-src-attr inline')),
      violations.join('\n'),
    );
    assert.ok(
      violations.some((v) => v.includes('example.invalid')),
      'the remote script was blocked by the CSP',
    );
    // The page's own styles and fonts come from the resource origin and are allowed.
    assert.ok(!violations.some((v) => v.includes(origin)), `own assets blocked: ${violations.join('\n')}`);
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('the protocol inspector page has the same CSP and loads its own bundle and stylesheet with the nonce', () => {
  const webview = { cspSource: CSP_SOURCE, asWebviewUri: (u: FakeUri) => uri(`${CSP_SOURCE}${u.path}`) };
  const join = (base: FakeUri, ...parts: string[]): FakeUri => uri([base.path, ...parts].join('/'));
  const page = { script: 'inspector.js', style: 'inspector.css', title: 'Protocol <Inspector>' };
  const html = renderWebviewHtml(
    webview as unknown as vscode.Webview,
    uri('/ext') as unknown as vscode.Uri,
    join as unknown as (b: vscode.Uri, ...p: string[]) => vscode.Uri,
    { language: 'en' },
    page,
  );
  assert.deepEqual(cspOf(html), cspOf(render()).set('script-src', cspOf(html).get('script-src')!).set('style-src', cspOf(html).get('style-src')!));
  const nonce = /'nonce-([^']+)'/.exec(cspOf(html).get('script-src')![0])![1];
  assert.ok(html.includes(`<script nonce="${nonce}" src="${CSP_SOURCE}/ext/dist/inspector.js"></script>`));
  assert.ok(html.includes(`href="${CSP_SOURCE}/ext/media/inspector.css"`));
  assert.ok(!html.includes('webview.js'));
  assert.ok(html.includes('<title>Protocol &#60;Inspector&#62;</title>'), 'the title is escaped');
});
