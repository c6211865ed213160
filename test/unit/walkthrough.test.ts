// The marketplace face of the extension checked against package.json: every command the walkthrough
// and the README link to or name exists, every image they show exists (small enough, and shipped in
// the .vsix when the walkthrough needs it), the icon is the 128×128 PNG the marketplace wants, and the
// repository links agree. The walkthrough's behaviour in VS Code is test/e2e/walkthrough.test.ts.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { listFiles, PackageManager } from '@vscode/vsce';
import { readLocalizedManifest } from '../support/manifest';

const root = join(import.meta.dirname, '..', '..');

/** The context keys the extension sets (`setContext`, 'key', …) anywhere in src/. */
function contextKeysSet(): Set<string> {
  const keys = new Set<string>();
  for (const file of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
    for (const m of readFileSync(join(root, 'src', file), 'utf8').matchAll(/'setContext',\s*'([\w.]+)'/g)) keys.add(m[1]);
  }
  return keys;
}

type ThemedPath = string | { light: string; dark: string; hc?: string; hcLight?: string };

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image?: ThemedPath; altText?: string; markdown?: string; svg?: string };
  completionEvents?: string[];
}

interface Manifest {
  publisher: string;
  name: string;
  version: string;
  icon?: string;
  repository?: { url: string };
  bugs?: { url: string };
  homepage?: string;
  keywords?: string[];
  galleryBanner?: { color: string; theme: string };
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    views: Record<string, Array<{ id: string }>>;
    configuration: { properties: Record<string, unknown> };
    walkthroughs: Array<{ id: string; title: string; description: string; steps: WalkthroughStep[] }>;
  };
}

// With package.nls.json's English texts in place of the %key% placeholders, as VS Code shows them.
const manifest = readLocalizedManifest(root) as Manifest;
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The largest image the walkthrough or README may carry (the .vsix must stay ≤ 2 MB). */
const MAX_IMAGE_BYTES = 300 * 1024;

const commandIds = new Set(manifest.contributes.commands.map((c) => c.command));
const viewIds = new Set(
  Object.values(manifest.contributes.views)
    .flat()
    .map((v) => v.id),
);
const settingIds = new Set(Object.keys(manifest.contributes.configuration.properties));

/** A command a `command:` link may run: a contributed one, or the focus command VS Code makes for a contributed view. */
function isKnownCommand(id: string): boolean {
  return commandIds.has(id) || (id.endsWith('.focus') && viewIds.has(id.slice(0, -'.focus'.length)));
}

/** Targets of `[label](command:id)` and `[label](command:id?args)` links. */
function commandLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(command:([A-Za-z0-9_.-]+)(?:\?[^)]*)?\)/g)].map((m) => m[1]);
}

/** Relative image paths of `![alt](path)`; absolute URLs are the marketplace's business. */
function imagePaths(markdown: string): string[] {
  return [...markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((p) => !/^[a-z][a-z0-9+.-]*:/i.test(p));
}

function mediaPaths(step: WalkthroughStep): string[] {
  const { image, markdown, svg } = step.media;
  const images = typeof image === 'string' ? [image] : image ? Object.values(image) : [];
  return [...images, ...(markdown ? [markdown] : []), ...(svg ? [svg] : [])];
}

/** Width and height from a PNG's IHDR chunk; throws for anything that is not a PNG. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.ok(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file} is a PNG`);
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR', `${file} starts with IHDR`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function assertSmallPng(rel: string): void {
  const file = join(root, rel);
  assert.ok(existsSync(file), `${rel} exists`);
  const { width, height } = pngSize(file);
  assert.ok(width > 0 && height > 0, `${rel} has a size`);
  assert.ok(statSync(file).size <= MAX_IMAGE_BYTES, `${rel} is ${statSync(file).size} bytes, over ${MAX_IMAGE_BYTES}`);
}

describe('walkthrough', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;

  test('there is one walkthrough, and its steps have unique ids, titles, descriptions and alt texts', () => {
    assert.equal(manifest.contributes.walkthroughs.length, 1);
    assert.ok(walkthrough.title && walkthrough.description);
    const ids = walkthrough.steps.map((s) => s.id);
    assert.equal(new Set(ids).size, ids.length, `unique step ids: ${ids.join(', ')}`);
    for (const step of walkthrough.steps) {
      assert.ok(step.title.trim() && step.description.trim(), `step ${step.id} has a title and a description`);
      if (step.media.image) assert.ok(step.media.altText?.trim(), `step ${step.id}'s image has an alt text`);
    }
  });

  test('every step has a button (a command link on a line of its own) and every linked command exists', () => {
    for (const step of walkthrough.steps) {
      const buttons = step.description.split('\n').filter((line) => /^\[[^\]]+\]\(command:[^)]+\)$/.test(line.trim()));
      assert.ok(buttons.length > 0, `step ${step.id} has a button`);
      const links = commandLinks(step.description);
      for (const id of links) assert.ok(isKnownCommand(id), `step ${step.id} links to ${id}, which package.json does not contribute`);
    }
  });

  test('the demo step has the button that starts the demo agent', () => {
    const demo = walkthrough.steps.find((s) => s.id === 'demo');
    assert.ok(demo, 'a demo step');
    assert.deepEqual(commandLinks(demo.description), ['tandem.tryDemo']);
  });

  test('completion events name contributed commands, views and settings', () => {
    for (const step of walkthrough.steps) {
      for (const event of step.completionEvents ?? []) {
        const [kind, target = ''] = event.split(':');
        if (kind === 'onCommand') assert.ok(isKnownCommand(target), `${step.id}: ${event}`);
        else if (kind === 'onView') assert.ok(viewIds.has(target), `${step.id}: ${event}`);
        else if (kind === 'onSettingChanged') assert.ok(settingIds.has(target), `${step.id}: ${event}`);
        else if (kind === 'onContext') assert.ok(contextKeysSet().has(target), `${step.id}: ${event} names a context key nothing in src/ sets`);
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
    }
  });

  test('every step has media that exists: a small PNG under media/walkthrough/', () => {
    for (const step of walkthrough.steps) {
      const paths = mediaPaths(step);
      assert.ok(paths.length > 0, `step ${step.id} has media`);
      for (const rel of paths) {
        assert.match(rel, /^media\/walkthrough\//, `${step.id}: ${rel} lives in media/walkthrough/`);
        if (rel.endsWith('.png')) assertSmallPng(rel);
        else assert.ok(existsSync(join(root, rel)), `${step.id}: ${rel} exists`);
      }
    }
  });
});

describe('README', () => {
  test('every command: link names a contributed command', () => {
    for (const id of commandLinks(readme)) assert.ok(isKnownCommand(id), `README links to ${id}`);
  });

  test('every `Tandem: …` command the README names exists under that title', () => {
    const titles = new Set(manifest.contributes.commands.map((c) => `${c.category ? `${c.category}: ` : ''}${c.title}`));
    const named = [...readme.matchAll(/`(Tandem: [^`]+)`/g)].map((m) => m[1]);
    assert.ok(named.length > 5, 'the README names commands');
    const missing = named.filter((t) => !titles.has(t));
    assert.deepEqual(missing, [], 'named in the README but not contributed');
  });

  test('every tandem.* identifier in the README is a command, a view or a setting', () => {
    const named = new Set([...readme.matchAll(/\btandem\.([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*)/g)].map((m) => `tandem.${m[1]}`));
    const unknown = [...named].filter((id) => !isKnownCommand(id) && !viewIds.has(id) && !settingIds.has(id));
    assert.deepEqual(unknown, []);
  });

  test('every image exists and is a small PNG; the screenshots are there', () => {
    const images = imagePaths(readme);
    for (const name of ['chat', 'permission', 'mentions', 'review', 'history']) {
      assert.ok(images.includes(`media/screenshots/${name}.png`), `the README shows media/screenshots/${name}.png`);
    }
    for (const rel of images) assertSmallPng(rel);
  });
});

describe('marketplace metadata', () => {
  test('the icon is a 128×128 PNG', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    assert.deepEqual(pngSize(join(root, manifest.icon)), { width: 128, height: 128 });
  });

  test('repository, bugs and homepage point at the same GitHub repository', () => {
    const repo = manifest.repository?.url.replace(/\.git$/, '');
    assert.match(repo ?? '', /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    assert.equal(manifest.bugs?.url, `${repo}/issues`);
    assert.ok(manifest.homepage?.startsWith(repo ?? '\0'), `homepage ${manifest.homepage} is in ${repo}`);
    assert.doesNotMatch(readFileSync(join(root, 'package.json'), 'utf8'), /example\.invalid/);
  });

  test('keywords, gallery banner and a changelog entry for this version', () => {
    // The marketplace takes at most 30 keywords.
    assert.ok((manifest.keywords?.length ?? 0) > 0 && (manifest.keywords?.length ?? 0) <= 30);
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''));
    assert.match(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${manifest.version.replace(/\./g, '\\.')}$`, 'm'));
  });

  test('the .vsix carries the icon and the walkthrough media but not the README-only screenshots', async () => {
    // vsce's own file list, so .vscodeignore is read exactly as packaging reads it.
    const files = new Set(await listFiles({ cwd: root, packageManager: PackageManager.None }));
    assert.ok(files.has('media/icon.png'), 'the icon ships');
    for (const step of manifest.contributes.walkthroughs[0].steps) {
      for (const rel of mediaPaths(step)) assert.ok(files.has(rel), `${rel} ships`);
    }
    const screenshots = [...files].filter((f) => f.startsWith('media/screenshots/'));
    assert.deepEqual(screenshots, [], 'the README loads its screenshots from the repository');
  });
});
