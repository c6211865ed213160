/**
 * The agent doctor's core (src/agents/agentDiagnosis.ts, doctorReport.ts, runtimeCheck.ts) against
 * the real scripted agent process: a healthy agent and its capability table, an agent that exits,
 * refuses or hangs, a cancelled check, and a command that is not there at all.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { diagnoseAgent } from '../../src/agents/agentDiagnosis';
import type { DoctorReport, DoctorTarget } from '../../src/agents/agentDiagnosis';
import { nextSteps, renderDoctorReport } from '../../src/agents/doctorReport';
import { runtimesFor } from '../../src/agents/runtimeCheck';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { cleanup, ensureScriptedAgentBuilt, isAlive, prepareScripted, trackUnhandledRejections } from '../support/scriptedAgentHarness';

/** Live processes whose command line mentions `needle` (Linux /proc; elsewhere nothing to check). */
function processesRunning(needle: string): number[] {
  if (process.platform !== 'linux') return [];
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(needle) && isAlive(Number(d));
      } catch {
        return false;
      }
    })
    .map(Number);
}

const unhandled = trackUnhandledRejections();
let tmp: string;
before(async () => {
  await ensureScriptedAgentBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-doctor-'));
});
after(async () => {
  await cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

const clientInfo = { name: 'tandem-test', version: '0.0.1' };

function scripted(script: AgentScript, env: Record<string, string> = {}): DoctorTarget {
  const run = prepareScripted(script, env);
  return { name: 'Scripted', command: run.cfg.command, args: run.cfg.args, env: run.cfg.env, cwd: run.dir };
}

function row(report: DoctorReport, feature: string): boolean | undefined {
  return report.start.ok ? report.start.capabilities.find((c) => c.feature === feature)?.supported : undefined;
}

describe('agent doctor: a healthy agent', () => {
  test('reports the protocol version, every capability, the sign-in methods and the runtime', async () => {
    const report = await diagnoseAgent(
      scripted({
        initialize: {
          stderr: 'warming up',
          agentCapabilities: {
            loadSession: true,
            sessionCapabilities: { resume: {}, list: {} },
            promptCapabilities: { image: true },
            mcpCapabilities: { http: true },
          },
          authMethods: [{ id: 'login', name: 'Log in with the browser', description: 'opens a | page' }],
        },
      }),
      { clientInfo, timeoutMs: 20_000 },
    );
    assert.ok(report.start.ok, JSON.stringify(report.start));
    assert.equal(report.start.protocolVersion, acp.PROTOCOL_VERSION);
    assert.deepEqual(report.start.agentInfo, { name: 'scripted-agent', version: '1.0.0' });
    assert.equal(row(report, 'session/load'), true);
    assert.equal(row(report, 'session/resume'), true);
    assert.equal(row(report, 'session/list'), true);
    assert.equal(row(report, 'session/close'), false);
    assert.equal(row(report, 'Images in prompts'), true);
    assert.equal(row(report, 'Audio in prompts'), false);
    assert.equal(row(report, 'MCP servers over HTTP'), true);
    assert.equal(row(report, 'MCP servers over SSE'), false);
    assert.deepEqual(report.start.authMethods, [{ id: 'login', name: 'Log in with the browser', description: 'opens a | page' }]);
    assert.equal(report.resolvedCommand, process.execPath);
    assert.deepEqual(
      report.runtimes.map((r) => [r.name, r.version]),
      [['Node.js (the editor’s own)', process.version]],
    );
    assert.match(report.stderr, /warming up/);
    assert.deepEqual(report.envNames, ['SCRIPTED_AGENT_LOG']);

    const md = renderDoctorReport(report);
    assert.match(md, /^# Agent check: Scripted/);
    assert.match(md, /✅ Started and answered `initialize` in \d+\.\d s/);
    assert.match(md, /\| session\/resume \| ✅ yes \|/);
    assert.match(md, /\| session\/close \| — no \|/);
    assert.match(md, /- Log in with the browser \(`login`\): opens a \\\| page/);
    assert.match(md, /```text\nwarming up\n```/);
    assert.match(md, /## What to do next/);
    assert.doesNotMatch(md, /tandem-scripted-[^/]*\/received\.jsonl/, 'env values never appear');
  });

  test('no sign-in methods and no capabilities: the table says no, and nothing needs doing', async () => {
    const report = await diagnoseAgent(scripted({}), { clientInfo });
    assert.ok(report.start.ok);
    assert.equal(row(report, 'session/load'), false);
    assert.equal(row(report, 'MCP servers over stdio'), true);
    assert.deepEqual(nextSteps(report), []);
    assert.match(renderDoctorReport(report), /Nothing: the agent is ready/);
  });
});

describe('agent doctor: conformance', () => {
  test('the handshake is checked against the schema; the report counts its warnings and the live ones', async () => {
    const clean = await diagnoseAgent(scripted({}), { clientInfo });
    assert.deepEqual(clean.conformance?.handshake.warnings, 0);
    assert.match(
      renderDoctorReport(clean),
      /## Protocol conformance\n\n✅ This check’s handshake: 1 messages from the agent checked, no conformance warnings\./,
    );
    const report = await diagnoseAgent(scripted({ initialize: { agentCapabilities: { loadSession: 'yes', promptCapabilities: { image: 3 } } as never } }), {
      clientInfo,
    });
    assert.ok(report.start.ok, 'warnings never change behaviour: it still starts');
    const handshake = report.conformance?.handshake;
    assert.equal(handshake?.warnings, 2, JSON.stringify(handshake));
    assert.deepEqual(handshake?.byRule, { 'schema-dropped': 2 });
    report.conformance!.live = {
      checked: 120,
      warnings: 3,
      errors: 1,
      byRule: { 'unknown-tool-call': 3, 'stop-reason': 1 },
      samples: ['Stop reason "done" is not one of end_turn'],
    };
    const md = renderDoctorReport(report);
    assert.match(md, /⚠️ This check’s handshake: 1 messages from the agent checked: 0 errors, 2 warnings\./);
    // Agent-supplied text is escaped: the field path's backticks are shown, never markup.
    assert.match(md, /- \\`result\.agentCapabilities\.loadSession\\` = "yes" is not valid: the SDK reads false\./);
    assert.match(md, /⚠️ Conversations with Scripted in this window: 120 messages from the agent checked: 1 errors, 3 warnings\./);
    assert.match(md, /\| `unknown-tool-call` \| 3 \|/);
    assert.match(md, /Tandem: Open Protocol Inspector/);
  });
});

describe('agent doctor: failures', () => {
  test('an agent that exits before answering: the exit, its stderr, and what to do', async () => {
    const report = await diagnoseAgent(scripted({ initialize: { stderr: 'Error: please log in first (no API key)', exitCode: 3 } }), { clientInfo });
    assert.equal(report.start.ok, false);
    assert.ok(!report.start.ok && report.start.stage === 'exited');
    assert.match(report.start.ok ? '' : report.start.message, /exited with code 3/);
    assert.match(report.stderr, /please log in first/);
    const steps = nextSteps(report).join('\n');
    assert.match(steps, /stderr/);
    assert.match(steps, /authentication/);
    assert.match(renderDoctorReport(report), /## Agent stderr \(last lines\)\n\n```text\nError: please log in first/);
  });

  test('an agent that answers initialize with an error', async () => {
    const report = await diagnoseAgent(scripted({ initialize: { error: { code: -32603, message: 'boom' } } }), { clientInfo });
    assert.ok(!report.start.ok && report.start.stage === 'error');
    assert.match(report.start.ok ? '' : report.start.message, /boom/);
  });

  test('an agent that never answers: a timeout, and the process is stopped', async () => {
    const run = prepareScripted({ initialize: { delayMs: 30_000 } });
    const began = Date.now();
    const report = await diagnoseAgent(
      { name: 'Slow', command: run.cfg.command, args: run.cfg.args, env: run.cfg.env, cwd: run.dir },
      { clientInfo, timeoutMs: 700 },
    );
    assert.ok(!report.start.ok && report.start.stage === 'timeout');
    assert.ok(Date.now() - began < 10_000);
    assert.match(nextSteps(report).join('\n'), /did not answer/);
    assert.equal(run.received()[0]?.method, 'initialize');
    assert.deepEqual(processesRunning(run.scriptPath), [], 'nothing is left running after a check');
  });

  test('a cancelled check stops the agent and says so', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const target = scripted({ initialize: { delayMs: 30_000 } });
    const report = await diagnoseAgent(target, { clientInfo, signal: controller.signal });
    assert.ok(!report.start.ok && report.start.stage === 'cancelled');
    assert.deepEqual(processesRunning(target.args[1]), []);
  });

  test('a command that is not on PATH: not started, with install advice', async () => {
    const report = await diagnoseAgent({ name: 'Ghost', command: 'tandem-no-such-agent-xyz', args: ['--acp'], env: {}, cwd: tmp }, { clientInfo });
    assert.equal(report.resolvedCommand, undefined);
    assert.ok(!report.start.ok && report.start.stage === 'not_found');
    assert.deepEqual(report.runtimes, []);
    const md = renderDoctorReport(report);
    assert.match(md, /\*\*not found on PATH\*\*/);
    assert.match(md, /Tandem: Install Agent…/);
    assert.doesNotMatch(md, /## Capabilities/);
  });

  test('npx with no Node on PATH: the missing runtime is the first thing to fix', async () => {
    const emptyBin = fs.mkdtempSync(path.join(tmp, 'bin-'));
    const report = await diagnoseAgent(
      { name: 'Needs Node', command: 'npx', args: ['-y', '@acme/agent@1.0.0'], env: { PATH: emptyBin }, cwd: tmp },
      { clientInfo },
    );
    assert.ok(!report.start.ok && report.start.stage === 'not_found');
    assert.deepEqual(
      report.runtimes.map((r) => [r.name, r.path, r.problem]),
      [
        ['Node.js', undefined, 'not found on PATH'],
        ['npx', undefined, 'not found on PATH'],
      ],
    );
    assert.match(nextSteps(report)[0], /Node\.js is missing\. Install Node\.js/);
    assert.match(renderDoctorReport(report), /\| Node\.js \| yes \| ❌ not found on PATH \|/);
  });

  test('a present runtime is found with its version', async () => {
    const bin = fs.mkdtempSync(path.join(tmp, 'bin-'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const script = path.join(bin, 'my-agent');
    fs.writeFileSync(script, '#!/usr/bin/env node\nprocess.exit(1)\n', { mode: 0o755 });
    const report = await diagnoseAgent({ name: 'Script', command: 'my-agent', args: [], env: { PATH: bin }, cwd: tmp }, { clientInfo, timeoutMs: 10_000 });
    assert.equal(report.resolvedCommand, script);
    assert.deepEqual(
      report.runtimes.map((r) => [r.name, r.version]),
      [['Node.js', process.version]],
    );
    assert.ok(!report.start.ok && report.start.stage === 'exited');
  });
});

describe('agent doctor: runtimes and markdown', () => {
  test('runtimes follow the command', () => {
    assert.deepEqual(
      runtimesFor('npx', undefined).map((r) => [r.name, r.required]),
      [
        ['Node.js', true],
        ['npx', true],
      ],
    );
    assert.deepEqual(
      runtimesFor('C:\\Program Files\\nodejs\\npx.cmd', undefined).map((r) => r.name),
      ['Node.js', 'npx'],
    );
    assert.deepEqual(
      runtimesFor('uvx', undefined).map((r) => [r.name, r.required]),
      [
        ['uv', true],
        ['Python', false],
      ],
    );
    assert.deepEqual(
      runtimesFor('python3', undefined).map((r) => r.name),
      ['Python'],
    );
    assert.deepEqual(runtimesFor('/opt/agent/bin/agent', undefined), []);
  });

  test('text from the agent or the settings cannot inject markup', () => {
    const report: DoctorReport = {
      agentName: 'Evil | <img src=x onerror=alert(1)> `x`',
      commandLine: 'agent --flag `rm -rf`|cat',
      envNames: [],
      cwd: '/w',
      runtimes: [],
      start: { ok: false, stage: 'exited', message: 'died\n# heading' },
      expectedProtocolVersion: 1,
      stderr: 'line with ``` fence\n```\nmore',
      checkedAt: '2026-01-01T00:00:00.000Z',
    };
    const md = renderDoctorReport(report);
    assert.match(md, /^# Agent check: Evil \\\| \\<img src=x onerror=alert\(1\)\\> \\`x\\`$/m);
    assert.match(md, /\| Command \| `` agent --flag `rm -rf`\\\|cat `` \|/);
    assert.match(md, /❌ died # heading/);
    assert.match(md, /````text\nline with ``` fence\n```\nmore\n````/);
    assert.match(md, /Checked 2026-01-01 00:00:00 UTC\./);
  });
});
