// The layer lint itself (eslint.config.mjs + scripts/lintRooms.mjs): a forbidden import fails from a
// file at any depth of a room and in any relative form, an allowed one passes, `vscode` in the core
// fails, and the thread's reducer stays the thread's. Only the snippets are linted, with the repo's
// layer rules (the type-aware rules are left out: they would start a TypeScript project per file).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const root = join(import.meta.dirname, '..', '..');

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const config = (await import(join(root, 'eslint.config.mjs'))) as { layerRules: Linter.Config[]; frontDoorRule: Linter.Config };
  const adapters = (await import(join(root, 'lint', 'adapterRooms.mjs'))) as { adapterRoomRules: Linter.Config[] };
  assert.ok(config.layerRules.length > 0 && adapters.adapterRoomRules.length > 0, 'the configs export their layer rules');
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
      ...config.layerRules,
      ...adapters.adapterRoomRules,
      config.frontDoorRule,
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('the layer lint', () => {
  test('holds a file deep in a room, in every relative form', async () => {
    for (const spec of ['../../conversation/conversation', '../../conversation', '../../conversation/sub/deeper', '../.././conversation/x']) {
      const errors = await layerErrors('src/thread/presentation/x.ts', `import { a } from '${spec}';\nexport const b = a;\n`);
      assert.equal(errors.length, 1, `${spec}: ${errors.join('; ')}`);
      assert.match(errors[0], /src\/thread may not import src\/conversation/);
    }
    const top = await layerErrors('src/thread/x.ts', `export { a } from '../conversation/conversation';\n`);
    assert.match(top.join('\n'), /src\/thread may not import src\/conversation/);
    const typeOnly = await layerErrors('src/thread/markdown/deep/x.ts', `import type { A } from '../../../runtime/y';\nexport type B = A;\n`);
    assert.match(typeOnly.join('\n'), /src\/thread may not import src\/runtime/);
  });

  test('lets allowed imports, the room itself and outside folders pass', async () => {
    const code = [
      "import { a } from '../../protocol/messages';",
      "import { b } from '../../acp/x';",
      "import { c } from '../threadReducer';",
      "import { d } from './sibling';",
      "import * as acp from '@agentclientprotocol/sdk';",
      'export const all = [a, b, c, d, acp];',
      '',
    ].join('\n');
    assert.deepEqual(await layerErrors('src/thread/presentation/x.ts', code), []);
    assert.deepEqual(
      await layerErrors('src/vscode/x.ts', "import * as vscode from 'vscode';\nimport { c } from '../conversation/c';\nexport const v = [vscode, c];\n"),
      [],
    );
    assert.deepEqual(await layerErrors('src/extension.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"), []);
  });

  test('keeps `vscode` out of the core', async () => {
    for (const file of ['src/thread/x.ts', 'src/conversation/deep/x.ts', 'src/protocol/x.ts']) {
      const errors = await layerErrors(file, "import * as vscode from 'vscode';\nexport const v = vscode;\n");
      assert.equal(errors.length, 1, `${file}: ${errors.join('; ')}`);
      assert.match(errors[0], /is vscode-free/);
    }
  });

  test('keeps the thread reducer the thread’s', async () => {
    const errors = await layerErrors('src/runtime/deep/x.ts', "import { reduce } from '../../thread/threadReducer';\nexport const r = reduce;\n");
    assert.match(errors.join('\n'), /Change the thread through Thread/);
  });

  test('holds the adapter rooms of webview/ and src/vscode/ at every depth', async () => {
    const up = await layerErrors('webview/core/x.ts', "import { App } from '../app/app';\nexport const a = App;\n");
    assert.match(up.join('\n'), /webview\/core may not import webview\/app/);
    const deep = await layerErrors('webview/inspector/deep/x.ts', "import { a } from '../../thread/thread';\nexport const b = a;\n");
    assert.match(deep.join('\n'), /webview\/inspector may not import webview\/thread/);
    // src/vscode/review is a sub-room; ../../review is the host's src/review, which the adapters may use.
    assert.deepEqual(await layerErrors('src/vscode/review/x.ts', "import { a } from '../../review/hunks';\nexport const b = a;\n"), []);
    const sideways = await layerErrors('src/vscode/review/x.ts', "import { a } from '../host/editorHost';\nexport const b = a;\n");
    assert.match(sideways.join('\n'), /src\/vscode\/review may not import src\/vscode\/host/);
  });

  test('keeps a conversation’s parts behind its front door', async () => {
    const code = 'declare const c: { internals: { link: unknown } };\nexport const l = c.internals.link;\n';
    assert.match((await layerErrors('src/vscode/host/x.ts', code)).join('\n'), /intents and queries/);
    assert.deepEqual(await layerErrors('src/conversation/x.ts', code), []);
  });
});
