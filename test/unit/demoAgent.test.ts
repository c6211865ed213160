/**
 * The bundled demo agent (dist/demoAgent.js) as a real child process over stdio, driven by a tiny
 * ACP client written here that serves fs/* from disk and terminal/* with child_process.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as esbuild from 'esbuild';
import * as acp from '@agentclientprotocol/sdk';

const ROOT = join(import.meta.dirname, '..', '..');
const AGENT = join(ROOT, 'dist', 'demoAgent.js');
const ALL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'];

before(async () => {
  // Only the demo entry, with build.mjs's options, so a half-edited extension elsewhere in the tree
  // cannot stop this test; the output is the same dist/demoAgent.js the extension runs.
  await esbuild.build({
    entryPoints: [join(ROOT, 'src/demoAgent/main.ts')],
    outfile: AGENT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
});

interface Options {
  /** Which permission option to pick; 'hold' leaves the request open until the turn is cancelled. */
  pick: acp.PermissionOptionKind | 'hold';
  caps: acp.ClientCapabilities;
  delayScale: number;
  /** Make fs/write_text_file answer with an error, as a client refusing a path would. */
  failWrites?: boolean;
}

const FULL_CAPS: acp.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

async function startDemo(opts: Options) {
  const workspace = mkdtempSync(join(tmpdir(), 'tandem-demo-'));
  writeFileSync(join(workspace, 'README.md'), '# A workspace\n\nUsed by the Tandem demo test.\n');
  const child: ChildProcess = spawn(process.execPath, [AGENT], {
    cwd: workspace,
    env: { ...process.env, TANDEM_DEMO_DELAY_SCALE: String(opts.delayScale) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const updates: acp.SessionUpdate[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const fsCalls: string[] = [];
  const terms = new Map<string, { output: string; exit: Promise<acp.WaitForTerminalExitResponse>; proc: ChildProcess }>();
  let pendingPermission: ((r: acp.RequestPermissionResponse) => void) | undefined;
  const app = acp
    .client({ name: 'demo-agent-test' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      if (opts.pick === 'hold') return new Promise<acp.RequestPermissionResponse>((resolve) => (pendingPermission = resolve));
      const option = params.options.find((o) => o.kind === opts.pick)!;
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      fsCalls.push(`read ${params.path}`);
      if (!existsSync(params.path)) throw acp.RequestError.resourceNotFound(params.path);
      const lines = readFileSync(params.path, 'utf8').split('\n');
      const start = (params.line ?? 1) - 1;
      return { content: lines.slice(start, params.limit == null ? undefined : start + params.limit).join('\n') };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      fsCalls.push(`write ${params.path}`);
      if (opts.failWrites) throw acp.RequestError.invalidParams(undefined, 'refused by the test client');
      mkdirSync(dirname(params.path), { recursive: true });
      writeFileSync(params.path, params.content);
      return {};
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? workspace });
      const t = {
        output: '',
        proc,
        exit: new Promise<acp.WaitForTerminalExitResponse>((r) => proc.on('close', (exitCode, signal) => r({ exitCode, signal }))),
      };
      proc.stdout?.on('data', (d: Buffer) => (t.output += d.toString()));
      const terminalId = `t${terms.size + 1}`;
      terms.set(terminalId, t);
      return { terminalId };
    })
    .onRequest(acp.methods.client.terminal.output, ({ params }) => ({ output: terms.get(params.terminalId)!.output, truncated: false }))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terms.get(params.terminalId)!.exit)
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      terms.get(params.terminalId)?.proc.kill('SIGKILL');
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      terms.get(params.terminalId)?.proc.kill('SIGKILL');
      return {};
    });
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>),
  );
  const init = await conn.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: opts.caps,
    clientInfo: { name: 'demo-agent-test', version: '0' },
  });
  assert.equal(init.agentInfo?.title, 'Tandem Demo');
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  const prompt = (text: string) => conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
  const cancel = async (): Promise<void> => {
    await conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    // The spec's MUST for clients: pending permission requests are answered `cancelled`.
    pendingPermission?.({ outcome: { outcome: 'cancelled' } });
  };
  const stop = (): void => {
    conn.close();
    child.kill('SIGKILL');
    rmSync(workspace, { recursive: true, force: true });
  };
  return { workspace, updates, permissions, fsCalls, terms, prompt, cancel, stop, hello: join(workspace, 'tandem-demo', 'hello.md') };
}

type ToolUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;
const toolUpdates = (u: acp.SessionUpdate[]): ToolUpdate[] =>
  u.filter((x): x is ToolUpdate => x.sessionUpdate === 'tool_call' || x.sessionUpdate === 'tool_call_update');
const text = (u: acp.SessionUpdate[]): string =>
  u.flatMap((x) => (x.sessionUpdate === 'agent_message_chunk' && x.content.type === 'text' ? [x.content.text] : [])).join('');
/** Final status per tool call id, applying updates in order. */
function finalStatuses(u: acp.SessionUpdate[]): Map<string, string | undefined> {
  const m = new Map<string, string | undefined>();
  for (const t of toolUpdates(u)) m.set(t.toolCallId, t.status ?? m.get(t.toolCallId));
  return m;
}

test('demo agent: full tour shows every kind, a diff, a terminal and a plan', { timeout: 30_000 }, async () => {
  const demo = await startDemo({ pick: 'allow_once', caps: FULL_CAPS, delayScale: 0 });
  try {
    const started = Date.now();
    const res = await demo.prompt('Show me around');
    console.log(`demo full tour (no delays): ${Date.now() - started} ms, ${demo.updates.length} updates`);
    assert.equal(res.stopReason, 'end_turn');
    const tools = toolUpdates(demo.updates);
    const kinds = new Set(tools.flatMap((t) => (t.kind ? [t.kind] : [])));
    assert.deepEqual([...kinds].sort(), [...ALL_KINDS].sort());
    // Titles sharpen: some call is announced with one title and later updated to another.
    const firstTitle = new Map<string, string>();
    for (const t of tools) if (t.sessionUpdate === 'tool_call') firstTitle.set(t.toolCallId, t.title);
    assert.ok(tools.some((t) => t.sessionUpdate === 'tool_call_update' && t.title && t.title !== firstTitle.get(t.toolCallId)));
    // Real workspace locations.
    assert.ok(tools.some((t) => t.locations?.some((l) => l.path === join(demo.workspace, 'README.md'))));
    const contents = tools.flatMap((t) => t.content ?? []);
    const diff = contents.find((c) => c.type === 'diff');
    assert.ok(diff && diff.type === 'diff' && diff.path === demo.hello && diff.newText.includes('Visits: 1'));
    assert.ok(
      contents.some((c) => c.type === 'terminal'),
      'terminal content',
    );
    assert.equal(demo.terms.size, 2, 'echo and ls ran in client terminals');
    assert.match([...demo.terms.values()][0].output, /Hello from the Tandem demo agent/);
    assert.match([...demo.terms.values()][1].output, /README\.md/);
    // Permission asked once with the three kinds of answer; the file then written through fs/*.
    assert.equal(demo.permissions.length, 1);
    assert.deepEqual(
      demo.permissions[0].options.map((o) => o.kind),
      ['allow_once', 'allow_always', 'reject_once'],
    );
    assert.ok(demo.fsCalls.includes(`write ${demo.hello}`));
    assert.ok(demo.fsCalls.includes(`read ${join(demo.workspace, 'README.md')}`));
    assert.match(readFileSync(demo.hello, 'utf8'), /Visits: 1/);
    // Plan progresses and ends all completed; thought and markdown streamed in many chunks.
    const plans = demo.updates.filter((u) => u.sessionUpdate === 'plan');
    assert.ok(plans.length >= 5);
    const last = plans.at(-1)!;
    assert.ok(last.sessionUpdate === 'plan' && last.entries.every((e) => e.status === 'completed'));
    assert.ok(demo.updates.some((u) => u.sessionUpdate === 'agent_thought_chunk'));
    assert.ok(demo.updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').length > 20);
    assert.match(text(demo.updates), /```ts[\s\S]*```/);
    assert.match(text(demo.updates), /\[Agent Client Protocol\]\(https:\/\/agentclientprotocol\.com\)/);
    assert.ok(
      [...finalStatuses(demo.updates).values()].every((s) => s === 'completed'),
      'every tool call completed',
    );
    assert.ok(!existsSync(join(demo.workspace, 'tandem-demo', 'archive')), 'the scratch file was moved then deleted');
  } finally {
    demo.stop();
  }
});

test('demo agent: a rejected edit is skipped and its tool call fails', { timeout: 30_000 }, async () => {
  const demo = await startDemo({ pick: 'reject_once', caps: FULL_CAPS, delayScale: 0 });
  try {
    const res = await demo.prompt('show me a diff');
    assert.equal(res.stopReason, 'end_turn');
    assert.ok(!existsSync(demo.hello), 'nothing written');
    const statuses = [...finalStatuses(demo.updates).values()];
    assert.deepEqual(statuses, ['failed']);
    assert.ok(!toolUpdates(demo.updates).some((t) => t.kind === 'execute'), '"diff" shows only the edit');
  } finally {
    demo.stop();
  }
});

test('demo agent: "always allow" is remembered for the session', { timeout: 30_000 }, async () => {
  const demo = await startDemo({ pick: 'allow_always', caps: FULL_CAPS, delayScale: 0 });
  try {
    assert.equal((await demo.prompt('edit')).stopReason, 'end_turn');
    assert.equal((await demo.prompt('edit again')).stopReason, 'end_turn');
    assert.equal(demo.permissions.length, 1);
    assert.match(readFileSync(demo.hello, 'utf8'), /Visits: 2/);
  } finally {
    demo.stop();
  }
});

test('demo agent: cancel mid-tour answers cancelled promptly and closes running tool calls', { timeout: 30_000 }, async () => {
  const demo = await startDemo({ pick: 'allow_once', caps: FULL_CAPS, delayScale: 1 });
  try {
    const turn = demo.prompt('tour please');
    while (!toolUpdates(demo.updates).some((t) => t.status === 'in_progress')) await new Promise((r) => setTimeout(r, 10));
    const t0 = Date.now();
    await demo.cancel();
    const res = await turn;
    const took = Date.now() - t0;
    console.log(`demo cancel mid-tour answered in ${took} ms`);
    assert.equal(res.stopReason, 'cancelled');
    assert.ok(took < 1000, `answered within a second (${took} ms)`);
    const statuses = [...finalStatuses(demo.updates).values()];
    assert.ok(statuses.includes('failed') && !statuses.includes('in_progress') && !statuses.includes('pending'), statuses.join(','));
    const n = demo.updates.length;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(demo.updates.length, n, 'no updates after the cancelled answer');
  } finally {
    demo.stop();
  }
});

test('demo agent: cancel while the permission prompt is open', { timeout: 30_000 }, async () => {
  const demo = await startDemo({ pick: 'hold', caps: FULL_CAPS, delayScale: 0 });
  try {
    const turn = demo.prompt('diff');
    while (demo.permissions.length === 0) await new Promise((r) => setTimeout(r, 10));
    await demo.cancel();
    assert.equal((await turn).stopReason, 'cancelled');
    assert.ok(!existsSync(demo.hello));
  } finally {
    demo.stop();
  }
});

test('demo agent: help lists keywords; without client capabilities the tour still runs', { timeout: 30_000 }, async () => {
  const demo = await startDemo({ pick: 'allow_once', caps: {}, delayScale: 0 });
  try {
    assert.equal((await demo.prompt('help')).stopReason, 'end_turn');
    assert.match(text(demo.updates), /plan[\s\S]*diff[\s\S]*terminal/);
    assert.equal(toolUpdates(demo.updates).length, 0);
    assert.equal((await demo.prompt('go')).stopReason, 'end_turn');
    assert.equal(demo.fsCalls.length + demo.terms.size, 0, 'no fs/terminal requests without the capabilities');
    assert.match(readFileSync(demo.hello, 'utf8'), /Visits: 1/, 'written on disk by the agent itself');
  } finally {
    demo.stop();
  }
});

test('demo agent: a client error on write fails the edit card, not the turn', { timeout: 30_000 }, async () => {
  const demo = await startDemo({ pick: 'allow_once', caps: FULL_CAPS, delayScale: 0, failWrites: true });
  try {
    assert.equal((await demo.prompt('diff')).stopReason, 'end_turn');
    assert.deepEqual([...finalStatuses(demo.updates).values()], ['failed']);
    const notes = toolUpdates(demo.updates)
      .flatMap((t) => t.content ?? [])
      .flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : []));
    assert.ok(
      notes.some((n) => n.includes('refused by the test client')),
      notes.join(' | '),
    );
  } finally {
    demo.stop();
  }
});
