import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { FileAccessError } from '../../src/client/fsHandler';
import { buildPrompt } from '../../src/context/promptBlocks';
import { mentionViewFromBlock } from '../../src/context/blockMentions';
import type { MentionReader, PromptBuildOptions } from '../../src/context/promptBlocks';
import type { Mention, Problem } from '../../src/context/mentions';
import { DEFAULT_PROMPT_LIMITS } from '../../src/context/promptOutcome';
import { utf8Length } from '../../src/context/textBytes';

const ALL: acp.PromptCapabilities = { embeddedContext: true, image: true, audio: true };
const NONE: acp.PromptCapabilities = { embeddedContext: false, image: false, audio: false };

/** A reader over an in-memory editor: `docs` is what the editor shows, `disk` what is saved. */
function editor(docs: Record<string, string>, sizes: Record<string, number> = {}): MentionReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async readText(path) {
      reads.push(path);
      if (!(path in docs)) throw new FileAccessError('notFound', path);
      return docs[path];
    },
    async fileSize(path) {
      return sizes[path];
    },
  };
}

/** `capabilities`: null for an agent that advertised none. */
function opts(reader: MentionReader, capabilities: acp.PromptCapabilities | null = ALL, extra: Partial<PromptBuildOptions> = {}): PromptBuildOptions {
  return { capabilities, reader, workspaceRoots: ['/ws'], ...extra };
}

const png = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

test('order: the user text first, then one block per mention in the order given; blank text is left out', async () => {
  const reader = editor({ '/ws/a.ts': 'A', '/ws/b.ts': 'B' });
  const mentions: Mention[] = [
    { kind: 'file', path: '/ws/b.ts' },
    { kind: 'file', path: '/ws/a.ts' },
  ];
  const built = await buildPrompt({ text: 'Explain these', mentions }, opts(reader));
  assert.deepEqual(
    built.blocks.map((b) => (b.type === 'resource' ? b.resource.uri : b.type)),
    ['text', 'file:///ws/b.ts', 'file:///ws/a.ts'],
  );
  assert.deepEqual(built.blocks[0], { type: 'text', text: 'Explain these' });
  assert.equal(built.textBytes, utf8Length('Explain these') + 2);

  const blank = await buildPrompt({ text: '  \n', mentions: [{ kind: 'file', path: '/ws/a.ts' }] }, opts(reader));
  assert.deepEqual(
    blank.blocks.map((b) => b.type),
    ['resource'],
  );
  assert.deepEqual((await buildPrompt({ text: '', mentions: [] }, opts(reader))).blocks, []);
});

test('embeddedContext on: a file is a resource with the editor text (unsaved changes), mimeType by extension', async () => {
  // The disk says "saved", the editor's buffer "unsaved": the buffer is what the user means.
  const disk = { '/ws/src/app.ts': 'export const v = "saved";\n' };
  const buffer = { '/ws/src/app.ts': 'export const v = "unsaved";\n' };
  assert.notEqual(disk['/ws/src/app.ts'], buffer['/ws/src/app.ts']);
  const reader = editor(buffer);
  const built = await buildPrompt({ text: 'Look', mentions: [{ kind: 'file', path: '/ws/src/app.ts' }] }, opts(reader));
  assert.deepEqual(built.blocks[1], {
    type: 'resource',
    resource: { uri: 'file:///ws/src/app.ts', text: 'export const v = "unsaved";\n', mimeType: 'text/x-typescript' },
  });
  assert.deepEqual(built.outcomes, [
    { view: { kind: 'file', label: 'app.ts', detail: 'src/app.ts', icon: 'file', uri: 'file:///ws/src/app.ts' }, sentAs: 'embedded' },
  ]);
  assert.deepEqual(reader.reads, ['/ws/src/app.ts']);
});

test('embeddedContext off (or no capabilities): files, selections and symbols are resource_links; nothing is read', async () => {
  const reader = editor({ '/ws/src/app.ts': 'x' }, { '/ws/src/app.ts': 1234 });
  const mentions: Mention[] = [
    { kind: 'file', path: '/ws/src/app.ts' },
    { kind: 'selection', path: '/ws/src/app.ts', range: { startLine: 10, endLine: 20 } },
    { kind: 'symbol', name: 'parse', path: '/ws/src/app.ts', range: { startLine: 3, endLine: 8 }, symbolKind: 'function' },
    { kind: 'folder', path: '/ws/src' },
  ];
  for (const caps of [NONE, null]) {
    const built = await buildPrompt({ text: 'Hi', mentions }, opts(reader, caps));
    assert.deepEqual(built.blocks.slice(1), [
      { type: 'resource_link', uri: 'file:///ws/src/app.ts', name: 'app.ts', mimeType: 'text/x-typescript', size: 1234 },
      { type: 'resource_link', uri: 'file:///ws/src/app.ts#L10-L20', name: 'app.ts:10-20', mimeType: 'text/x-typescript' },
      { type: 'resource_link', uri: 'file:///ws/src/app.ts#L3-L8', name: 'parse', mimeType: 'text/x-typescript' },
      { type: 'resource_link', uri: 'file:///ws/src/', name: 'src' },
    ]);
    assert.deepEqual(
      built.outcomes.map((o) => [o.sentAs, o.reason]),
      [
        ['linked', undefined],
        ['linked', undefined],
        ['linked', undefined],
        ['linked', undefined],
      ],
    );
    assert.equal(built.outcomes[2].view.icon, 'symbol-function');
  }
  assert.deepEqual(reader.reads, []);
});

test('folders are linked even with embeddedContext', async () => {
  const built = await buildPrompt({ text: '', mentions: [{ kind: 'folder', path: '/ws/src/' }] }, opts(editor({})));
  assert.deepEqual(built.blocks, [{ type: 'resource_link', uri: 'file:///ws/src/', name: 'src' }]);
});

test('selection: range in the uri fragment, only those lines (editor text) embedded; columns cut the ends', async () => {
  const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\r\n') + '\r\n';
  const reader = editor({ '/ws/a.ts': text });
  const built = await buildPrompt(
    {
      text: 'Fix',
      mentions: [
        { kind: 'selection', path: '/ws/a.ts', range: { startLine: 10, endLine: 12 } },
        { kind: 'selection', path: '/ws/a.ts', range: { startLine: 5, endLine: 5 } },
        { kind: 'selection', path: '/ws/a.ts', range: { startLine: 2, endLine: 3, startColumn: 3, endColumn: 5 } },
        { kind: 'selection', path: '/ws/a.ts', range: { startLine: 29, endLine: 99 } },
        { kind: 'symbol', name: 'first', path: '/ws/a.ts', range: { startLine: 1, endLine: 1 } },
      ],
    },
    opts(reader),
  );
  const resources = built.blocks.slice(1).map((b) => (b.type === 'resource' && 'text' in b.resource ? [b.resource.uri, b.resource.text] : b));
  assert.deepEqual(resources, [
    ['file:///ws/a.ts#L10-L12', 'line 10\r\nline 11\r\nline 12\r\n'],
    ['file:///ws/a.ts#L5', 'line 5\r\n'],
    ['file:///ws/a.ts#L2,3-L3,5', 'ne 2\r\nline'],
    ['file:///ws/a.ts#L29-L99', 'line 29\r\nline 30\r\n'],
    ['file:///ws/a.ts#L1', 'line 1\r\n'],
  ]);
  assert.deepEqual(built.outcomes[0].view, {
    kind: 'selection',
    label: 'a.ts:10-12',
    detail: 'a.ts:10-12',
    icon: 'selection',
    uri: 'file:///ws/a.ts#L10-L12',
    range: { startLine: 10, endLine: 12 },
  });
});

test('selection past the end of the file is linked with a note; a reversed range is refused', async () => {
  const reader = editor({ '/ws/a.ts': 'one\ntwo\n' });
  const built = await buildPrompt(
    {
      text: 'x',
      mentions: [
        { kind: 'selection', path: '/ws/a.ts', range: { startLine: 7, endLine: 9 } },
        { kind: 'selection', path: '/ws/a.ts', range: { startLine: 5, endLine: 2 } },
      ],
    },
    opts(reader),
  );
  assert.deepEqual(built.blocks[1], { type: 'resource_link', uri: 'file:///ws/a.ts#L7-L9', name: 'a.ts:7-9', mimeType: 'text/x-typescript' });
  assert.equal(built.outcomes[0].sentAs, 'linked');
  assert.equal(built.outcomes[0].note, 'a.ts:7-9 could not be read (line 7 is past the end of the file): linked, not embedded');
  assert.equal(built.outcomes[1].sentAs, 'notSent');
  assert.equal(built.outcomes[1].reason?.code, 'invalid');
  assert.equal(built.blocks.length, 2);
});

test('a block over maxBlockBytes is cut to its first bytes at a line break, with a notice for the model and a note for the user', async () => {
  const big = Array.from({ length: 400 }, (_, i) => `const line${i} = ${i};`).join('\n') + '\n';
  const reader = editor({ '/ws/src/big.ts': big });
  const built = await buildPrompt(
    { text: 'Review', mentions: [{ kind: 'file', path: '/ws/src/big.ts' }] },
    opts(reader, ALL, { limits: { maxBlockBytes: 2048 } }),
  );
  const block = built.blocks[1];
  assert.ok(block.type === 'resource' && 'text' in block.resource);
  const text = block.resource.text;
  const [kept, notice] = [text.slice(0, text.lastIndexOf('\n[') + 1), text.slice(text.lastIndexOf('\n[') + 1)];
  assert.ok(big.startsWith(kept), 'an exact prefix of the file');
  assert.ok(kept.endsWith('\n') && utf8Length(kept) <= 2048 && utf8Length(kept) > 1500);
  assert.match(notice, /^\[Cut by Tandem: only the first 2 KB of \d+(\.\d)? KB are here; read the file for the rest\.\]$/);
  assert.equal(built.outcomes[0].sentAs, 'embedded');
  assert.deepEqual(built.outcomes[0].reason, { code: 'cut', keptBytes: utf8Length(kept), totalBytes: utf8Length(big), limitBytes: 2048, kept: 'start' });
  assert.match(built.outcomes[0].note ?? '', /^src\/big\.ts was cut to its first 2 KB \(of \d+(\.\d)? KB\)$/);
});

test('the default limits are 200 KB per block, 1 MB per prompt, 5 MB per image', async () => {
  assert.deepEqual(
    [DEFAULT_PROMPT_LIMITS.maxBlockBytes, DEFAULT_PROMPT_LIMITS.maxPromptBytes, DEFAULT_PROMPT_LIMITS.maxImageBytes],
    [200 * 1024, 1024 * 1024, 5 * 1024 * 1024],
  );
  const reader = editor({ '/ws/huge.txt': 'é'.repeat(150 * 1024) }); // 300 KB in UTF-8
  const built = await buildPrompt({ text: '', mentions: [{ kind: 'file', path: '/ws/huge.txt' }] }, opts(reader));
  assert.equal(built.outcomes[0].note, 'huge.txt was cut to its first 200 KB (of 300 KB)');
  assert.ok(built.textBytes < 200 * 1024 + 200);
});

test('prompt over budget: a later file is linked, later context is dropped, each with a reason; a small one after still fits', async () => {
  const kb = (n: number, ch: string) => (ch.repeat(1023) + '\n').repeat(n);
  const reader = editor({ '/ws/one.ts': kb(6, 'a'), '/ws/two.ts': kb(6, 'b'), '/ws/three.ts': 'small\n' });
  const mentions: Mention[] = [
    { kind: 'file', path: '/ws/one.ts' },
    { kind: 'file', path: '/ws/two.ts' },
    { kind: 'gitDiff', diff: kb(5, '+') },
    { kind: 'file', path: '/ws/three.ts' },
  ];
  const built = await buildPrompt({ text: 'Go', mentions }, opts(reader, ALL, { limits: { maxPromptBytes: 10 * 1024 } }));
  assert.deepEqual(
    built.outcomes.map((o) => o.sentAs),
    ['embedded', 'linked', 'notSent', 'embedded'],
  );
  assert.deepEqual(built.outcomes[1].reason, { code: 'overBudget', limitBytes: 10 * 1024, media: false });
  assert.equal(built.outcomes[1].note, 'two.ts was linked, not embedded: a prompt is limited to 10 KB');
  assert.equal(built.outcomes[2].note, 'Git diff was not sent: a prompt is limited to 10 KB');
  assert.deepEqual(
    built.blocks.map((b) => b.type),
    ['text', 'resource', 'resource_link', 'resource'],
  );
  assert.ok(built.textBytes <= 10 * 1024);
});

test('when the budget is used up, later files are linked without being read', async () => {
  const reader = editor({ '/ws/a.ts': 'x'.repeat(100), '/ws/b.ts': 'y' });
  const built = await buildPrompt(
    {
      text: 'z'.repeat(100),
      mentions: [
        { kind: 'file', path: '/ws/a.ts' },
        { kind: 'file', path: '/ws/b.ts' },
      ],
    },
    opts(reader, ALL, { limits: { maxPromptBytes: 100 } }),
  );
  assert.deepEqual(
    built.outcomes.map((o) => o.reason?.code),
    ['overBudget', 'overBudget'],
  );
  assert.deepEqual(reader.reads, []);
  assert.equal(built.blocks[0].type, 'text', 'the user text is never cut or dropped');
});

test('binary files are linked, never embedded: by extension (not read) or by content (NUL / FileAccessError binary)', async () => {
  const reader: MentionReader & { reads: string[] } = {
    reads: [],
    async readText(path) {
      this.reads.push(path);
      if (path === '/ws/data.dat') return 'abc\u0000def';
      throw new FileAccessError('binary', path);
    },
  };
  const mentions: Mention[] = [
    { kind: 'file', path: '/ws/logo.png' },
    { kind: 'file', path: '/ws/data.dat' },
    { kind: 'file', path: '/ws/blob' },
  ];
  const built = await buildPrompt({ text: 'x', mentions }, opts(reader));
  assert.deepEqual(built.blocks.slice(1), [
    { type: 'resource_link', uri: 'file:///ws/logo.png', name: 'logo.png', mimeType: 'image/png' },
    { type: 'resource_link', uri: 'file:///ws/data.dat', name: 'data.dat' },
    { type: 'resource_link', uri: 'file:///ws/blob', name: 'blob' },
  ]);
  assert.deepEqual(
    built.outcomes.map((o) => o.reason),
    [{ code: 'binary' }, { code: 'binary' }, { code: 'binary' }],
  );
  assert.equal(built.outcomes[0].note, 'logo.png is a binary file: linked, not embedded');
  assert.deepEqual(reader.reads, ['/ws/data.dat', '/ws/blob']);
});

test('unreadable files are linked with a note saying why', async () => {
  const reader: MentionReader = {
    async readText(path) {
      if (path === '/ws/gone.ts') throw new FileAccessError('notFound', path);
      if (path === '/ws/dir') throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
      if (path === '/ws/secret.ts') throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      throw new Error('the disk is on fire');
    },
  };
  const mentions: Mention[] = ['/ws/gone.ts', '/ws/dir', '/ws/secret.ts', '/ws/odd.ts'].map((path) => ({ kind: 'file', path }));
  const built = await buildPrompt({ text: 'x', mentions }, opts(reader));
  assert.deepEqual(
    built.outcomes.map((o) => o.sentAs),
    ['linked', 'linked', 'linked', 'linked'],
  );
  assert.deepEqual(
    built.outcomes.map((o) => o.note),
    [
      'gone.ts could not be read (file not found): linked, not embedded',
      'dir could not be read (it is a folder): linked, not embedded',
      'secret.ts could not be read (permission denied): linked, not embedded',
      'odd.ts could not be read (the disk is on fire): linked, not embedded',
    ],
  );
  assert.ok(built.blocks.slice(1).every((b) => b.type === 'resource_link'));
});

test('images and audio: sent only when the agent accepts them, else refused with a reason', async () => {
  const mentions: Mention[] = [
    { kind: 'image', name: 'screenshot.png', mimeType: 'image/png', data: png(10) },
    { kind: 'audio', name: 'note.wav', mimeType: 'audio/wav', data: png(4) },
  ];
  const on = await buildPrompt({ text: 'See', mentions }, opts(editor({})));
  assert.deepEqual(on.blocks.slice(1), [
    { type: 'image', mimeType: 'image/png', data: png(10) },
    { type: 'audio', mimeType: 'audio/wav', data: png(4) },
  ]);
  assert.deepEqual(
    on.outcomes.map((o) => o.sentAs),
    ['image', 'audio'],
  );
  assert.equal(on.mediaBytes, 14);

  for (const caps of [NONE, { embeddedContext: true }, null]) {
    const off = await buildPrompt({ text: 'See', mentions }, opts(editor({}), caps));
    assert.deepEqual(off.blocks, [{ type: 'text', text: 'See' }]);
    assert.deepEqual(
      off.outcomes.map((o) => o.note),
      ['screenshot.png was not sent: the agent does not accept images', 'note.wav was not sent: the agent does not accept audio'],
    );
    assert.deepEqual(off.outcomes[0].reason, { code: 'notAccepted', capability: 'image' });
  }
});

test('an image over maxImageBytes, over the media budget, of an unsupported type or not base64 is refused', async () => {
  const mentions: Mention[] = [
    { kind: 'image', name: 'huge.png', mimeType: 'image/png', data: png(5 * 1024 * 1024 + 1) },
    { kind: 'image', name: 'ok.jpg', mimeType: 'image/jpeg', data: png(4 * 1024 * 1024), path: '/ws/ok.jpg' },
    { kind: 'image', name: 'again.png', mimeType: 'image/png', data: png(4 * 1024 * 1024) },
    { kind: 'image', name: 'pic.bmp', mimeType: 'image/bmp', data: png(3) },
    { kind: 'image', name: 'bad.png', mimeType: 'image/png', data: 'not base64!' },
  ];
  const built = await buildPrompt({ text: 'x', mentions }, opts(editor({}), ALL, { limits: { maxMediaBytes: 6 * 1024 * 1024 } }));
  assert.deepEqual(
    built.outcomes.map((o) => o.sentAs),
    ['notSent', 'image', 'notSent', 'notSent', 'notSent'],
  );
  assert.deepEqual(
    built.outcomes.map((o) => o.note),
    [
      'huge.png is larger than 5 MB and was not sent',
      undefined,
      'again.png was not sent: images and audio of a prompt are limited to 6 MB',
      'pic.bmp was not sent: image/bmp is not a supported image type (sent: png, jpeg, gif, webp)',
      'bad.png was not sent: its data is not base64',
    ],
  );
  assert.deepEqual(built.outcomes[0].reason, { code: 'tooLarge', bytes: 5 * 1024 * 1024 + 1, limitBytes: 5 * 1024 * 1024 });
  const image = built.blocks[1];
  assert.ok(image.type === 'image');
  assert.equal(image.uri, 'file:///ws/ok.jpg');
  assert.equal(built.mediaBytes, 4 * 1024 * 1024);
});

const PROBLEMS: Problem[] = [
  { file: '/ws/src/app.ts', line: 10, column: 5, severity: 'error', message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: 2322 },
  { file: '/ws/src/app.ts', line: 12, column: 1, severity: 'warning', message: 'Unused variable\nsecond line', source: 'eslint', code: 'no-unused-vars' },
  { file: '/elsewhere/x.ts', line: 1, column: 1, severity: 'information', message: 'Note' },
];

test('problems, terminal output and git diff: embedded tandem:// resources with embeddedContext', async () => {
  const mentions: Mention[] = [
    { kind: 'problems', problems: PROBLEMS },
    { kind: 'problems', file: '/ws/src/app.ts', problems: [] },
    { kind: 'terminal', name: 'npm test', output: '\u001b[32mPASS\u001b[0m a.test.ts\r\nprogress 10%\rprogress 100%\r\n\u001b]0;title\u0007done\n' },
    { kind: 'gitDiff', diff: 'diff --git a/x b/x\n-old\n+new\n' },
  ];
  const built = await buildPrompt({ text: 'Fix', mentions }, opts(editor({})));
  assert.deepEqual(built.blocks.slice(1), [
    {
      type: 'resource',
      resource: {
        uri: 'tandem://problems',
        mimeType: 'text/plain',
        text: [
          "src/app.ts:10:5: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
          'src/app.ts:12:1: warning: Unused variable\n    second line [eslint no-unused-vars]',
          '/elsewhere/x.ts:1:1: information: Note',
        ].join('\n'),
      },
    },
    { type: 'resource', resource: { uri: 'tandem://problems?file=file%3A%2F%2F%2Fws%2Fsrc%2Fapp.ts', mimeType: 'text/plain', text: 'No problems.' } },
    { type: 'resource', resource: { uri: 'tandem://terminal/npm%20test', mimeType: 'text/plain', text: 'PASS a.test.ts\nprogress 100%\ndone' } },
    { type: 'resource', resource: { uri: 'tandem://git/diff', mimeType: 'text/x-diff', text: 'diff --git a/x b/x\n-old\n+new\n' } },
  ]);
  assert.deepEqual(
    built.outcomes.map((o) => [o.sentAs, o.view.label, o.view.icon]),
    [
      ['embedded', 'Problems', 'warning'],
      ['embedded', 'Problems: app.ts', 'warning'],
      ['embedded', 'npm test', 'terminal'],
      ['embedded', 'Git diff', 'git-compare'],
    ],
  );
});

test('problems, terminal output and git diff: text blocks with a heading and a fence without embeddedContext', async () => {
  const mentions: Mention[] = [
    { kind: 'problems', file: '/ws/src/app.ts', problems: PROBLEMS.slice(0, 2) },
    { kind: 'terminal', name: 'bash', output: '' },
    { kind: 'gitDiff', diff: '+```js\n+x\n+```\n', root: '/ws' },
    { kind: 'gitDiff', diff: '' },
  ];
  const built = await buildPrompt({ text: 'Fix', mentions }, opts(editor({}), NONE));
  assert.deepEqual(
    built.blocks.slice(1).map((b) => (b.type === 'text' ? b.text : b)),
    [
      "Problems in src/app.ts (1 error, 1 warning):\n```\nsrc/app.ts:10:5: error: Type 'string' is not assignable to type 'number'. [ts 2322]\nsrc/app.ts:12:1: warning: Unused variable\n    second line [eslint no-unused-vars]\n```",
      'Recent output of terminal "bash":\n```\n(no output)\n```',
      'Uncommitted changes in /ws (git diff):\n````diff\n+```js\n+x\n+```\n````',
      'Uncommitted changes (git diff):\n```diff\nNo uncommitted changes.\n```',
    ],
  );
  assert.deepEqual(
    built.outcomes.map((o) => o.sentAs),
    ['text', 'text', 'text', 'text'],
  );
});

test('terminal output over the block limit keeps its end', async () => {
  const output = Array.from({ length: 300 }, (_, i) => `out ${i}`).join('\n');
  const built = await buildPrompt(
    { text: '', mentions: [{ kind: 'terminal', name: 'zsh', output }] },
    opts(editor({}), ALL, { limits: { maxBlockBytes: 512 } }),
  );
  const block = built.blocks[0];
  assert.ok(block.type === 'resource' && 'text' in block.resource);
  assert.match(block.resource.text, /^\[Cut by Tandem: only the last 512 B of [\d.]+ KB are here; earlier output is left out\.\]\nout \d+\n/);
  assert.ok(block.resource.text.endsWith('\nout 299'));
  assert.equal(built.outcomes[0].reason?.code === 'cut' && built.outcomes[0].reason.kept, 'end');
  assert.match(built.outcomes[0].note ?? '', /^Terminal zsh was cut to its last 512 B/);
});

test('uris: spaces, unicode and # in paths are percent-encoded; relative paths are refused', async () => {
  const path = '/ws/my dir/naïve #1?.ts';
  const reader = editor({ [path]: 'x' });
  const built = await buildPrompt(
    {
      text: 'x',
      mentions: [
        { kind: 'file', path },
        { kind: 'file', path: 'src/rel.ts' },
      ],
    },
    opts(reader),
  );
  const block = built.blocks[1];
  assert.ok(block.type === 'resource');
  assert.equal(block.resource.uri, 'file:///ws/my%20dir/na%C3%AFve%20%231%3F.ts');
  assert.equal(built.outcomes[0].view.label, 'naïve #1?.ts');
  assert.equal(built.outcomes[1].note, 'src/rel.ts was not sent: src/rel.ts is not an absolute path');
});

test('Windows paths: drive letters and UNC shares with the windows path style', async () => {
  const reader = editor({ 'C:\\Users\\me\\proj\\a b.ts': 'x' });
  const mentions: Mention[] = [
    { kind: 'file', path: 'C:\\Users\\me\\proj\\a b.ts' },
    { kind: 'selection', path: '\\\\server\\share\\src\\x.ts', range: { startLine: 2, endLine: 4 } },
    { kind: 'folder', path: 'C:\\Users\\me\\proj' },
  ];
  const built = await buildPrompt({ text: 'x', mentions }, opts(reader, ALL, { pathStyle: 'windows', workspaceRoots: ['c:\\users\\me\\proj'] }));
  assert.deepEqual(
    built.blocks.slice(1).map((b) => (b.type === 'resource' ? b.resource.uri : b.type === 'resource_link' ? b.uri : b.type)),
    ['file:///C:/Users/me/proj/a%20b.ts', 'file://server/share/src/x.ts#L2-L4', 'file:///C:/Users/me/proj/'],
  );
  assert.equal(built.outcomes[0].view.detail, 'a b.ts');
  assert.equal(built.outcomes[1].note, '\\\\server\\share\\src\\x.ts:2-4 could not be read (file not found): linked, not embedded');
  assert.equal(built.outcomes[2].view.label, 'proj');
});

test('the same thing mentioned twice is sent once', async () => {
  const reader = editor({ '/ws/a.ts': 'x' });
  const built = await buildPrompt(
    {
      text: 'x',
      mentions: [
        { kind: 'file', path: '/ws/a.ts' },
        { kind: 'file', path: '/ws/a.ts' },
      ],
    },
    opts(reader),
  );
  assert.deepEqual(
    built.outcomes.map((o) => o.sentAs),
    ['embedded', 'notSent'],
  );
  assert.equal(built.outcomes[1].note, 'a.ts is mentioned more than once: sent once');
  assert.equal(built.blocks.length, 2);
  assert.deepEqual(reader.reads, ['/ws/a.ts']);
});

test('mentionViewFromBlock reads back the blocks Tandem sends (for replayed user messages)', async () => {
  const mentions: Mention[] = [
    { kind: 'file', path: '/ws/a b.ts' },
    { kind: 'selection', path: '/ws/a.ts', range: { startLine: 3, endLine: 4 } },
    { kind: 'folder', path: '/ws/src' },
    { kind: 'problems', file: '/ws/a.ts', problems: [] },
    { kind: 'terminal', name: 'npm test', output: 'x' },
    { kind: 'gitDiff', diff: 'x' },
    { kind: 'image', name: 'shot.png', mimeType: 'image/png', data: png(3) },
  ];
  const reader = editor({ '/ws/a b.ts': 'x', '/ws/a.ts': '1\n2\n3\n4\n' });
  const built = await buildPrompt({ text: 'x', mentions }, opts(reader));
  const views = built.blocks.map((b) => mentionViewFromBlock(b, { workspaceRoots: ['/ws'] }));
  assert.equal(views[0], undefined, 'the user text has no view');
  const expected = built.outcomes.map((o) => o.view);
  expected[6] = { kind: 'image', label: 'Image', icon: 'file-media' };
  assert.deepEqual(views.slice(1), expected);

  // Links (no embeddedContext) read back the same; plain-text context has no view.
  const linked = await buildPrompt({ text: 'x', mentions: mentions.slice(0, 4) }, opts(reader, NONE));
  const linkViews = linked.blocks.map((b) => mentionViewFromBlock(b, { workspaceRoots: ['/ws'] }));
  assert.deepEqual(linkViews.slice(1), [...linked.outcomes.slice(0, 3).map((o) => o.view), undefined]);
  assert.equal(mentionViewFromBlock({ type: 'resource_link', uri: 'https://example.com/x', name: 'x' }), undefined);
});
