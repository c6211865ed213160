/**
 * The handoff of Continue with Another Agent… (issue 31, item 4): the document the next agent reads
 * (a preface, then the conversation as the Markdown export writes it: prompts, replies, what each
 * tool did, the files changed), the `conversation` chip's spec, view and checks, and how the prompt
 * carries it — an embedded `text/markdown` resource for an agent that takes embedded context, a
 * headed text block otherwise, cut at its start when too long so the end and the preface stay.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { handoffDocument, handoffNotice, handoffSource, handoffSpec } from '../../src/conversation/handoff';
import { parseTandemUri } from '../../src/context/contextUri';
import { mentionViewFromBlock } from '../../src/context/blockMentions';
import { specToMention, specView } from '../../src/context/mentionSpecs';
import type { ContextSources } from '../../src/context/mentionSpecs';
import { buildPrompt } from '../../src/context/promptBlocks';
import { isMentionSpec } from '../../src/protocol/mentionChecks';
import type { MarkdownSource } from '../../src/thread/markdown/conversationMarkdown';
import { handoffMarkdown, handoffPreface } from '../../src/thread/markdown/handoffMarkdown';
import type { ConversationMeta } from '../../src/store/conversationMeta';

const FIXTURE = join(__dirname, '..', 'fixtures', 'markdownExport', 'toolCalls.json');
const source = (): MarkdownSource => (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { source: MarkdownSource }).source;

const noReads = { readText: () => Promise.reject(new Error('no file is read')) };
const sources = (text: { preface: string; markdown: string } | undefined): ContextSources => ({
  problems: () => [],
  terminalOutput: () => undefined,
  gitDiff: async () => ({ diff: '' }),
  conversation: async (id) => (id === 'conv-1' ? text : undefined),
});

test('the document: a preface naming the agent it comes from, then prompts, replies, what each tool did and the files changed', () => {
  const { text } = handoffMarkdown(source(), { secrets: [] });
  const [preface, ...rest] = text.split('\n\n');
  assert.match(preface, /^> The user is continuing this conversation with you\. It was held with Tandem Demo in Tandem/);
  assert.match(preface, /its changes are already made, nothing was undone\. Do not redo its work/);
  const body = rest.join('\n\n');
  assert.match(body, /^# Fix the greeting\n/);
  assert.match(body, /## You\n\nFix the greeting and run the tests\./, 'the prompt');
  assert.match(body, /## Tandem Demo/, 'the agent’s side');
  assert.match(body, /Read src\/greet\.ts/, 'what the read did');
  assert.match(body, /Edit src\/greet\.ts/, 'what the edit did');
  assert.match(body, /npm test/, 'the command it ran');
  assert.match(body, /## Files changed\n\n- `src\/greet\.ts` — modified \(\+1 −1\)\n- `NOTES\.md` — added/, 'the files changed');
  assert.equal(handoffPreface('Tandem Demo'), preface, 'the preface the prompt sends is the same one');
});

test('secrets the agents were started with are masked, as in an export', () => {
  const withSecret = source();
  withSecret.entries = [...withSecret.entries, { kind: 'agent', id: 'a9', text: 'The key is sk-live-0123456789abcdef0123 and hunter2-token-xyz.' }];
  const { markdown } = handoffDocument(withSecret, ['hunter2-token-xyz']);
  assert.ok(!markdown.includes('hunter2-token-xyz'), 'a value the agent was started with');
  assert.ok(markdown.includes('[REDACTED]'));
});

test('the chip: spec, checks, view and URI; the notice names the conversation and its agent', () => {
  const meta = { id: 'conv-1', title: 'Fix the greeting', agentName: 'Claude' } as ConversationMeta;
  const spec = handoffSpec(meta);
  assert.deepEqual(spec, { kind: 'conversation', conversationId: 'conv-1', title: 'Fix the greeting', agentName: 'Claude' });
  assert.ok(isMentionSpec(spec), 'the panel may post it back');
  assert.ok(!isMentionSpec({ kind: 'conversation', conversationId: '', title: 'x', agentName: 'Claude' }), 'an id is needed');
  assert.ok(!isMentionSpec({ kind: 'conversation', conversationId: 'c', title: 7, agentName: 'Claude' }));
  const view = specView(spec);
  assert.equal(view.kind, 'conversation');
  assert.equal(view.label, 'Fix the greeting');
  assert.equal(view.icon, 'comment-discussion');
  assert.equal(view.uri, 'tandem://conversation/conv-1');
  assert.equal(view.detail, 'The conversation with Claude: Fix the greeting');
  assert.deepEqual(parseTandemUri('tandem://conversation/conv-1'), { kind: 'conversation', conversationId: 'conv-1' });
  assert.equal(specView({ ...spec, title: ' ' }).label, 'Earlier conversation', 'an untitled one still says what it is');
  assert.equal(
    handoffNotice(meta),
    'This conversation continues “Fix the greeting” from Claude. It is attached to your first message as context (remove it there to start without it); the files are as that conversation left them.',
  );
});

test('sent as an embedded text/markdown resource to an agent that takes embedded context, after the user’s text', async () => {
  const doc = handoffDocument(source(), []);
  const mention = await specToMention(handoffSpec({ id: 'conv-1', title: 'Fix the greeting', agentName: 'Tandem Demo' }), sources(doc));
  const built = await buildPrompt({ text: 'Go on, please.', mentions: [mention] }, { capabilities: { embeddedContext: true }, reader: noReads });
  assert.equal(built.blocks.length, 2);
  assert.deepEqual(built.blocks[0], { type: 'text', text: 'Go on, please.' });
  const block = built.blocks[1] as Extract<acp.ContentBlock, { type: 'resource' }>;
  assert.equal(block.type, 'resource');
  const resource = block.resource as acp.TextResourceContents;
  assert.equal(resource.uri, 'tandem://conversation/conv-1');
  assert.equal(resource.mimeType, 'text/markdown');
  assert.equal(resource.text, `${doc.preface}\n\n${doc.markdown}`);
  assert.equal(resource.text, handoffMarkdown(source(), { secrets: [] }).text, 'the document as the renderer writes it');
  assert.equal(built.outcomes[0].sentAs, 'embedded');
  // A replay of that user message shows the chip again.
  assert.equal(mentionViewFromBlock(block)?.kind, 'conversation');
});

test('without embedded context: a headed text block; too long: the start is cut, the preface and the end stay', async () => {
  const doc = handoffDocument(source(), []);
  const mention = await specToMention(handoffSpec({ id: 'conv-1', title: 'Fix the greeting', agentName: 'Tandem Demo' }), sources(doc));
  const plain = await buildPrompt({ text: '', mentions: [mention] }, { capabilities: null, reader: noReads });
  assert.equal(plain.blocks.length, 1);
  const text = (plain.blocks[0] as { type: 'text'; text: string }).text;
  assert.match(text, /^The conversation with Tandem Demo: Fix the greeting:\n(`{3,})markdown\n> The user is continuing[^]*\n\1$/);
  assert.ok(text.includes('## Files changed'));
  assert.equal(plain.outcomes[0].sentAs, 'text');

  const long = { preface: doc.preface, markdown: `${'old line\n'.repeat(5000)}THE END\n` };
  const big = await specToMention(handoffSpec({ id: 'conv-1', title: 'T', agentName: 'A' }), sources(long));
  const cut = await buildPrompt({ text: 'x', mentions: [big] }, { capabilities: { embeddedContext: true }, reader: noReads, limits: { maxBlockBytes: 1000 } });
  const sent = ((cut.blocks[1] as { resource: acp.TextResourceContents }).resource as acp.TextResourceContents).text;
  assert.ok(sent.startsWith(doc.preface), 'the preface stays first');
  assert.ok(sent.endsWith('THE END\n'), 'the end of the conversation stays');
  assert.match(sent, /\[Cut by Tandem: only the last 1,000 B of .* are here; the earlier part of the conversation is left out\.\]/);
  assert.equal(cut.outcomes[0].reason?.code, 'cut');
});

test('a conversation that is gone is not sent, and the prompt says why', async () => {
  await assert.rejects(specToMention(handoffSpec({ id: 'conv-2', title: 'T', agentName: 'A' }), sources(undefined)), /that conversation is no longer there/);
});

test('handoffSource: what the renderer is given of a conversation (its changed files when open)', () => {
  const meta = { id: 'c', title: 'T', agentName: 'A', createdAt: 1, updatedAt: 2, cwd: '/ws' } as ConversationMeta;
  const files = [{ path: '/ws/a.ts', relPath: 'a.ts', status: 'modified', added: 1, removed: 0 }] as never;
  const built = handoffSource(meta, { entries: [], terminals: {} }, files);
  assert.deepEqual(built, { title: 'T', agentName: 'A', createdAt: 1, updatedAt: 2, entries: [], terminals: {}, changedFiles: files, cwd: '/ws' });
  assert.equal('changedFiles' in handoffSource(meta, { entries: [], terminals: {} }, undefined), false);
});
