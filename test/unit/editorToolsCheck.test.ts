/**
 * Check Agent's part on the `tandem` MCP server (src/agents/editorToolsCheck.ts, editorToolsReport.ts)
 * against the real scripted agent process: the transport it would get, and — over loopback HTTP —
 * whether its MCP client (the MCP SDK's own, in the agent) lists the tools of a real server in a
 * session the check opens; the server answers nothing of the user's and is gone afterwards.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import type { ProtocolLog } from '../../src/acp/protocolLog';
import { diagnoseAgent } from '../../src/agents/agentDiagnosis';
import type { DoctorReport, DoctorTarget } from '../../src/agents/agentDiagnosis';
import { renderDoctorReport } from '../../src/agents/doctorReport';
import { editorToolsOff, type EditorToolsCheckOptions } from '../../src/agents/editorToolsCheck';
import { ConformanceMonitor } from '../../src/inspector/conformance';
import { parseRecord } from '../../src/inspector/wireRecord';
import { WireStore } from '../../src/inspector/wireStore';
import { checkToolsPort } from '../../src/mcp/checkToolsPort';
import { EDITOR_TOOL_NAMES, EditorToolRegistry } from '../../src/mcp/toolRegistry';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { cleanup, ensureScriptedAgentBuilt, prepareScripted, trackUnhandledRejections, type ScriptedRun } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
before(async () => {
  await ensureScriptedAgentBuilt();
});
after(async () => {
  await cleanup();
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

const clientInfo = { name: 'tandem-test', version: '0.0.1' };

interface Checked {
  report: DoctorReport;
  run: ScriptedRun;
  store: WireStore;
  markdown: string;
}

/** `none`: the doctor is not asked about the tandem server at all. */
async function check(script: AgentScript, editorTools: EditorToolsCheckOptions | 'none' = {}): Promise<Checked> {
  const run = prepareScripted(script);
  const target: DoctorTarget = { name: 'Scripted', command: run.cfg.command, args: run.cfg.args, env: run.cfg.env, cwd: run.dir };
  const store = new WireStore();
  const log: ProtocolLog = {
    message: (d, raw, origin) => store.message(d, raw, origin),
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    stderr: () => undefined,
  };
  const report = await diagnoseAgent(target, { clientInfo, timeoutMs: 20_000, log, ...(editorTools !== 'none' ? { editorTools } : {}) });
  assert.ok(report.start.ok, JSON.stringify(report.start));
  return { report, run, store, markdown: renderDoctorReport(report) };
}

const sessionNews = (run: ScriptedRun): Array<Record<string, unknown>> => run.received().filter((m) => m.method === 'session/new');

function withMcp(mcpCapabilities: Record<string, boolean>, newSession: NonNullable<AgentScript['newSession']> = {}): AgentScript {
  return {
    initialize: { agentCapabilities: { mcpCapabilities, sessionCapabilities: { close: {} } } as acp.AgentCapabilities },
    newSession,
  };
}

describe('Check Agent: the tandem MCP server over loopback HTTP', () => {
  test('an agent that lists the tools when its session starts: "listed the tools", the traffic in the inspector, the session closed', async () => {
    const { report, run, store, markdown } = await check(withMcp({ http: true }, { listMcpTools: true }));
    assert.equal(report.editorTools?.transport, 'http');
    assert.ok(report.editorTools && 'listing' in report.editorTools && report.editorTools.listing.state === 'listed', JSON.stringify(report.editorTools));
    assert.match(markdown, /Editor tools \(the `tandem` MCP server\)/);
    assert.match(markdown, /loopback HTTP/);
    assert.match(markdown, /✅ listed the tools/);

    const [sessionNew] = sessionNews(run);
    const servers = (sessionNew.params as { mcpServers: Array<{ type: string; name: string; url: string }> }).mcpServers;
    assert.equal(servers.length, 1);
    assert.equal(servers[0].type, 'http');
    assert.equal(servers[0].name, 'tandem');
    assert.match(servers[0].url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(
      run.received().some((m) => m.method === 'session/close'),
      'the check’s session is closed',
    );
    assert.doesNotMatch(markdown, /Bearer|127\.0\.0\.1:\d+/, 'neither the token nor the endpoint is in the report');

    // The agent's tools/list and its answer are rows of their own, with all 13 tools, and pass no ACP check.
    const mcp = [...store.since()].filter((r) => r.agent === 'Scripted · tandem MCP');
    const answer = mcp.find((r) => r.dir === 'out' && r.method === 'tools/list');
    assert.ok(answer, 'the tools/list answer is recorded');
    const listed = (parseRecord(answer)?.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    assert.deepEqual(listed.sort(), [...EDITOR_TOOL_NAMES].sort());
    assert.equal(report.conformance?.handshake.warnings, 0, JSON.stringify(report.conformance));
    assert.equal(report.conformance?.handshake.errors, 0);
    const monitor = new ConformanceMonitor(store);
    monitor.drain();
    assert.deepEqual(monitor.allWarnings(), []);
    monitor.dispose();

    // Gone with the check: the port no longer answers.
    await assert.rejects(fetch(servers[0].url, { method: 'POST', body: '{}' }));
  });

  test('an agent that does not list them in time: "did not list the tools within N s"', async () => {
    const { report, run, markdown } = await check(withMcp({ http: true }), { listWaitMs: 400 });
    assert.deepEqual(report.editorTools, { transport: 'http', listing: { state: 'notListed', waitedMs: 400 } });
    assert.match(markdown, /did not list the tools within 0\.4 s \(agents may load MCP tools only when the model asks for them\)/);
    assert.equal(sessionNews(run).length, 1);
  });

  test('a session that cannot be opened (sign-in needed) says why, and the check still reports the agent', async () => {
    const { report, markdown } = await check(withMcp({ http: true }, { requireAuth: true }));
    assert.ok(report.editorTools && 'listing' in report.editorTools && report.editorTools.listing.state === 'noSession', JSON.stringify(report.editorTools));
    assert.match(markdown, /not checked: the check could not open a session/);
    assert.match(markdown, /Started and answered `initialize`/);
  });
});

describe('Check Agent: the other transports and "off"', () => {
  test('MCP over ACP and stdio are named, without a session', async () => {
    const overAcp = await check(withMcp({ acp: true, http: true }));
    assert.deepEqual(overAcp.report.editorTools, { transport: 'acp', listing: { state: 'notChecked' } });
    assert.match(overAcp.markdown, /MCP over ACP/);
    assert.equal(sessionNews(overAcp.run).length, 0);

    const stdio = await check(withMcp({}));
    assert.deepEqual(stdio.report.editorTools, { transport: 'stdio', listing: { state: 'notChecked' } });
    assert.match(stdio.markdown, /\| Transport \| stdio/);
    assert.match(stdio.markdown, /not checked over this transport yet/);
    assert.equal(sessionNews(stdio.run).length, 0);
  });

  test('off (setting, untrusted workspace, a server of the user’s named tandem): said so, and no session is opened', async () => {
    for (const [reason, words] of [
      ['setting', /off: `tandem\.editorTools` is false/],
      ['untrusted', /off: the workspace is not trusted/],
      ['nameTaken', /off: one of your MCP servers is already named `tandem`/],
    ] as const) {
      const { report, run, markdown } = await check(withMcp({ http: true }, { listMcpTools: true }), { off: reason });
      assert.deepEqual(report.editorTools, { transport: 'off', reason });
      assert.match(markdown, words);
      assert.equal(sessionNews(run).length, 0, reason);
    }
  });

  test('without the option (a remote check, older callers) nothing is said of it', async () => {
    const { report, markdown, run } = await check(withMcp({ http: true }), 'none');
    assert.equal(report.editorTools, undefined);
    assert.doesNotMatch(markdown, /Editor tools/);
    assert.equal(sessionNews(run).length, 0);
  });

  test('editorToolsOff decides as a conversation does: the setting, then trust, then the name', () => {
    assert.equal(editorToolsOff({ enabled: true, trusted: true, servers: [{ name: 'github' }] }), undefined);
    assert.equal(editorToolsOff({ enabled: false, trusted: false, servers: [{ name: 'tandem' }] }), 'setting');
    assert.equal(editorToolsOff({ enabled: true, trusted: false, servers: [{ name: 'tandem' }] }), 'untrusted');
    assert.equal(editorToolsOff({ enabled: true, trusted: true, servers: [{ name: 'tandem' }] }), 'nameTaken');
  });
});

describe('Check Agent: the check’s port answers nothing of the user’s', () => {
  test('queries are empty; reads, writes and commands are refused with a message for the model', async () => {
    const registry = new EditorToolRegistry(checkToolsPort(process.cwd()));
    const signal = new AbortController().signal;
    const diagnostics = await registry.call('diagnostics', {}, signal);
    assert.equal(diagnostics.isError, false);
    for (const [name, args] of [
      ['read_file', { path: 'package.json' }],
      ['write_file', { path: 'x.txt', content: 'y' }],
      ['edit_file', { path: 'package.json', edits: [{ oldText: 'a', newText: 'b' }] }],
      ['run_in_terminal', { command: 'echo hi' }],
    ] as const) {
      const outcome = await registry.call(name, args, signal);
      assert.equal(outcome.isError, true, name);
      assert.match(outcome.text, /not available during Check Agent/, name);
    }
  });
});
