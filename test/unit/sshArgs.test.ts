/**
 * Finding 13 of the security review: an ssh tunnel can pass the remote agent its variables only on
 * the command line (`ssh build-box env OPENAI_API_KEY=… codex-acp`), so a credential-named
 * `NAME=value` argument is a secret like an env value: masked in the "Starting agent" line, in
 * what the process echoes on stderr, in the pickers' text and Check Agent's command row, and
 * counted among the entry's secrets (so the editor-wide log masks it too). The process is real;
 * `node -e` stands in for ssh and prints its arguments as a verbose ssh would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { AgentProcess } from '../../src/acp/agentProcess';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { describeEntry, type CommandEntry } from '../../src/agents/agentEntry';
import { diagnoseAgent } from '../../src/agents/agentDiagnosis';
import { entrySecrets, launchConfigFor } from '../../src/vscode/agents/agentLaunch';

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwx';
const entry: CommandEntry = {
  kind: 'command',
  command: process.execPath,
  args: [
    '-e',
    "process.stderr.write('debug1: Sending command: ' + process.argv.slice(1).join(' ') + '\\n')",
    'build-box',
    'env',
    `OPENAI_API_KEY=${KEY}`,
    'codex-acp',
  ],
  env: {},
};
const agent = { name: 'Codex over ssh', entry, builtIn: false };

test('a credential in an ssh tunnel’s arguments is masked in the log line, stderr, the picker text and Check Agent’s report', { timeout: 30_000 }, async () => {
  const log = new MemoryProtocolLog();
  const proc = AgentProcess.start(launchConfigFor(agent, { extensionPath: '/ext', storageDir: tmpdir(), cwd: tmpdir(), secrets: {} }), log);
  await proc.exited;
  const starting = log.of('info').find((l) => l.startsWith("Starting agent 'Codex over ssh'"));
  assert.ok(starting, log.toString());
  assert.match(starting, /build-box env OPENAI_API_KEY=\*\*\* codex-acp/);
  assert.ok(
    log.of('stderr').some((l) => l.includes('Sending command:')),
    'the echo was logged',
  );
  assert.ok(!log.toString().includes(KEY), `the key is in the log:\n${log.toString()}`);
  assert.ok(!proc.stderrTail(10).includes(KEY), 'the key is in the stderr tail (crash reports)');

  assert.equal(describeEntry(entry).endsWith('build-box env OPENAI_API_KEY=*** codex-acp'), true, describeEntry(entry));
  assert.ok(entrySecrets(agent).includes(KEY), 'the editor-wide log does not know the key');

  const report = await diagnoseAgent(
    { name: agent.name, command: entry.command, args: entry.args, env: {}, cwd: tmpdir() },
    { clientInfo: { name: 't', version: '0' }, timeoutMs: 5000 },
  );
  assert.ok(!JSON.stringify(report).includes(KEY), 'Check Agent’s report holds the key');
  assert.match(report.commandLine, /OPENAI_API_KEY=\*\*\*/);
});
