// Localisation: every string the code passes to `l10n.t` is in l10n/bundle.l10n.json (extracted with
// @vscode/l10n-dev, as `npm run l10n` writes it) and no bundle keeps a string the code no longer
// uses; the Chinese bundle and package.nls.zh-cn.json translate exactly the English keys with the
// same placeholders; package.json's user-facing texts are all %key% placeholders that exist; the
// panel's HTML carries the language; and the host's strings and formats really switch language.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import * as l10n from '@vscode/l10n';
import { getL10nJson } from '@vscode/l10n-dev';
import { listFiles, PackageManager } from '@vscode/vsce';
import type * as vscode from 'vscode';
import { describeAge } from '../../src/agents/registryClient';
import { formatBytes, relativeTime, setDisplayLanguage } from '../../src/protocol/displayLanguage';
import { renderWebviewHtml } from '../../src/vscode/core/webviewHtml';

const root = join(import.meta.dirname, '..', '..');
const LANGUAGES = ['zh-cn'];

type Bundle = Record<string, string | { message: string; comment: string[] }>;

const readJson = <T>(rel: string): T => JSON.parse(readFileSync(join(root, rel), 'utf8')) as T;
const messageOf = (value: Bundle[string]): string => (typeof value === 'string' ? value : value.message);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => extname(f) === '.ts' && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
}

/** `{0}`, `{name}`: what a translation must keep, in any order. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{([^{}\s]+)\}/g)].map((m) => m[0]).sort();
}

function assertSameKeys(actual: Record<string, unknown>, expected: Record<string, unknown>, what: string): void {
  const missing = Object.keys(expected).filter((k) => !(k in actual));
  const extra = Object.keys(actual).filter((k) => !(k in expected));
  assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, what);
}

describe('string bundles', () => {
  test('l10n/bundle.l10n.json is exactly what @vscode/l10n-dev extracts from src/ and webview/', async () => {
    const files = [...sourceFiles('src'), ...sourceFiles('webview')];
    const extracted = await getL10nJson(files.map((f) => ({ extension: '.ts', contents: readFileSync(join(root, f), 'utf8') })));
    assert.ok(Object.keys(extracted).length > 300, `only ${Object.keys(extracted).length} strings extracted`);
    const bundle = readJson<Bundle>('l10n/bundle.l10n.json');
    // Missing: the code shows a string no translation covers. Extra: a translation of nothing. Run `npm run l10n`.
    assertSameKeys(bundle, extracted, 'l10n/bundle.l10n.json against the l10n.t calls (run `npm run l10n`)');
    for (const [key, value] of Object.entries(extracted)) assert.deepEqual(bundle[key], value, `bundle entry ${key}`);
  });

  test('every file that calls l10n.t imports it from @vscode/l10n as a namespace (what the extractor reads)', () => {
    for (const file of [...sourceFiles('src'), ...sourceFiles('webview')]) {
      const text = readFileSync(join(root, file), 'utf8');
      if (!/\bl10n\.t\(/.test(text)) continue;
      assert.match(text, /^import \* as l10n from '@vscode\/l10n';$/m, `${relative(root, join(root, file))} calls l10n.t`);
    }
  });

  for (const language of LANGUAGES) {
    test(`l10n/bundle.l10n.${language}.json translates every string, with the same placeholders`, () => {
      const english = readJson<Bundle>('l10n/bundle.l10n.json');
      const translated = readJson<Record<string, string>>(`l10n/bundle.l10n.${language}.json`);
      assertSameKeys(translated, english, `bundle.l10n.${language}.json keys`);
      for (const [key, value] of Object.entries(translated)) {
        assert.equal(typeof value, 'string', key);
        assert.ok(value.trim(), `empty translation of ${key}`);
        assert.deepEqual(placeholders(value), placeholders(messageOf(english[key])), `placeholders of ${key}`);
      }
    });

    test(`package.nls.${language}.json translates every package.nls.json key, with the same placeholders and links`, () => {
      const english = readJson<Record<string, string>>('package.nls.json');
      const translated = readJson<Record<string, string>>(`package.nls.${language}.json`);
      assertSameKeys(translated, english, `package.nls.${language}.json keys`);
      for (const [key, value] of Object.entries(translated)) {
        assert.ok(value.trim(), `empty translation of ${key}`);
        assert.deepEqual(placeholders(value), placeholders(english[key]), `placeholders of ${key}`);
        // Walkthrough buttons and settings links must still run the same commands and name the same settings.
        const targets = (t: string) => [...t.matchAll(/\(command:[^)]+\)|#tandem\.[A-Za-z.]+#|`[^`]+`/g)].map((m) => m[0]).sort();
        assert.deepEqual(targets(value), targets(english[key]), `links, settings and code of ${key}`);
      }
    });
  }
});

describe('package.json', () => {
  const text = readFileSync(join(root, 'package.json'), 'utf8');
  const manifest = JSON.parse(text) as Record<string, unknown> & { contributes: Record<string, unknown> };
  const nls = readJson<Record<string, string>>('package.nls.json');

  test('every %key% has a text in package.nls.json, and every text there is used', () => {
    const used = new Set([...text.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]));
    assert.ok(used.size > 40, `only ${used.size} placeholders`);
    assertSameKeys(nls, Object.fromEntries([...used].map((k) => [k, true])), 'package.nls.json against the %key% placeholders');
  });

  test('the texts VS Code shows are placeholders, not English', () => {
    const literal: string[] = [];
    const visit = (value: unknown, path: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${path}[${i}]`));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, `${path}.${k}`);
      else if (typeof value === 'string' && !/^%[^%]+%$/.test(value)) {
        const field = /\.(title|description|markdownDescription|name|altText|displayName)$|\.enumDescriptions\[\d+\]$/.exec(path);
        // "Tandem", the product's name, stays as it is (the activity bar container and the settings section).
        if (field && value !== 'Tandem') literal.push(`${path}: ${value}`);
      }
    };
    visit(
      { displayName: manifest.displayName, description: manifest.description, capabilities: manifest.capabilities, contributes: manifest.contributes },
      'package',
    );
    assert.deepEqual(literal, []);
    assert.equal(manifest.l10n, './l10n', 'package.json points VS Code at the l10n/ bundles');
  });

  test('the .vsix ships the package.nls files and the bundles', async () => {
    const files = new Set(await listFiles({ cwd: root, packageManager: PackageManager.None }));
    for (const file of ['package.nls.json', 'l10n/bundle.l10n.json', ...LANGUAGES.flatMap((l) => [`package.nls.${l}.json`, `l10n/bundle.l10n.${l}.json`])]) {
      assert.ok(files.has(file), `${file} ships`);
    }
  });
});

describe('the panel gets the language', () => {
  const uri = (path: string) => ({ path, toString: () => path });
  const render = (locale: Parameters<typeof renderWebviewHtml>[3]) =>
    renderWebviewHtml(
      { cspSource: 'https://x.vscode-cdn.net', asWebviewUri: (u: { path: string }) => uri(u.path) } as unknown as vscode.Webview,
      uri('/ext') as unknown as vscode.Uri,
      ((base: { path: string }, ...p: string[]) => uri([base.path, ...p].join('/'))) as unknown as (b: vscode.Uri, ...p: string[]) => vscode.Uri,
      locale,
    );

  test('<html lang> and the JSON data block carry the display language and its bundle, unbreakable by its contents', () => {
    const bundle = { Send: '发送', Evil: '</script><script>alert(1)</script><!--' };
    const html = render({ language: 'zh-cn', bundle });
    assert.match(html, /<html lang="zh-cn">/);
    const blocks = [...html.matchAll(/<script type="application\/json" id="tandem-locale" nonce="[^"]+">([\s\S]*?)<\/script>/g)];
    assert.equal(blocks.length, 1);
    assert.deepEqual(JSON.parse(blocks[0][1]), { language: 'zh-cn', bundle });
    assert.equal(html.match(/<\/script>/g)?.length, 2, 'the bundle text closed no script element');
    assert.doesNotMatch(blocks[0][1], /</);
    assert.match(render(undefined), /<html lang="en">/);
  });
});

describe('the host speaks the configured language', () => {
  after(() => {
    l10n.config({ contents: {} });
    setDisplayLanguage('en');
  });

  test('with the zh-cn bundle, l10n.t strings and Intl formats are Chinese; English by default', () => {
    const hourAgo = Date.now() - 3_600_000;
    assert.equal(describeAge(hourAgo), '1 hour ago');
    assert.equal(relativeTime(Date.now() - 86_400_000), 'yesterday');
    l10n.config({ contents: readJson<Bundle>('l10n/bundle.l10n.zh-cn.json') });
    setDisplayLanguage('zh-cn');
    assert.equal(describeAge(hourAgo), '1小时前');
    assert.equal(relativeTime(Date.now() - 86_400_000), '昨天');
    assert.equal(formatBytes(1363149), '1.3 MB');
    assert.equal(l10n.t('Keep'), '保留');
  });
});
