// `"command": "ssh", "args": ["host", "agent", …]`: an agent on another machine through an ssh stdio
// tunnel. No sshd runs here, so `ssh` is a stand-in on PATH that behaves as ssh does for this: it
// prints its warnings to stderr, runs the remote command (here, locally) on its stdio, and on a
// dropped connection says "Connection to … closed by remote host." and exits 255. What is real:
// the process tree Tandem starts, its stderr in the log, Stop ending the group, the lost connection
// said and the session reattached over a new tunnel.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureScriptedAgentBuilt, isAlive, trackUnhandledRejections, waitFor } from '../support/scriptedAgentHarness';
import { scriptedSession, until } from '../support/scriptedSession';

const unhandled = trackUnhandledRejections();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

const FAKE_SSH = `#!${process.execPath}
// ssh [options] destination command [args…], for tests: the command runs here.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const argv = process.argv.slice(2);
let i = 0;
while (argv[i] && argv[i].startsWith('-')) i += /^-[oipJlF]$/.test(argv[i]) ? 2 : 1;
const host = argv[i];
process.stderr.write("Warning: Permanently added '" + host + "' (ED25519) to the list of known hosts.\\n");
if (process.env.FAKE_SSH_REFUSE) {
  process.stderr.write('ssh: connect to host ' + host + ' port 22: Connection refused\\n');
  process.exit(255);
}
const child = spawn(argv[i + 1], argv.slice(i + 2), { stdio: 'inherit' });
fs.appendFileSync(process.env.FAKE_SSH_PIDS, process.pid + ' ' + child.pid + '\\n');
process.on('SIGUSR2', () => {
  process.stderr.write('Connection to ' + host + ' closed by remote host.\\n');
  child.kill('SIGKILL');
  process.exit(255);
});
child.on('exit', (code) => process.exit(code === null ? 1 : code));
`;

function tunnel(script: unknown, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-ssh-'));
  dirs.push(dir);
  const bin = join(dir, 'bin');
  const ssh = join(bin, 'ssh');
  mkdirSync(bin);
  writeFileSync(ssh, FAKE_SSH);
  chmodSync(ssh, 0o755);
  const pids = join(dir, 'pids.txt');
  const made = scriptedSession(dir, script, {
    command: 'ssh',
    nodeArgs: ['-o', 'ServerAliveInterval=15', 'build-box', process.execPath],
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, FAKE_SSH_PIDS: pids, SCRIPTED_AGENT_STATE: join(dir, 'state.json'), ...env },
  });
  const tunnels = (): Array<{ ssh: number; agent: number }> =>
    existsSync(pids)
      ? readFileSync(pids, 'utf8')
          .trim()
          .split('\n')
          .map((l) => l.split(' ').map(Number))
          .map(([s, a]) => ({ ssh: s, agent: a }))
      : [];
  return { ...made, tunnels };
}

test('the remote stderr reaches the log, and closing the conversation ends ssh and the agent behind it', async () => {
  await ensureScriptedAgentBuilt();
  const { session, log, tunnels } = tunnel({
    initialize: { stderr: 'remote agent: ready on build-box' },
    turns: [{ steps: [{ echo: true }], stopReason: 'end_turn' }],
  });
  try {
    await session.start();
    assert.equal(session.status.kind, 'ready');
    await session.prompt('over the tunnel');
    assert.match(JSON.stringify(session.snapshotParts().entries), /over the tunnel/);
    const stderr = log.of('stderr');
    assert.ok(
      stderr.some((l) => l.includes("Warning: Permanently added 'build-box'")),
      "ssh's own stderr",
    );
    assert.ok(
      stderr.some((l) => l.includes('remote agent: ready on build-box')),
      "the remote agent's stderr",
    );
    const [{ ssh, agent }] = tunnels();
    assert.ok(isAlive(ssh) && isAlive(agent));
    await session.manager.close(session.conversation.id);
    await waitFor(() => !isAlive(ssh) && !isAlive(agent), 10_000, 'ssh and the agent to end');
  } finally {
    session.dispose();
  }
});

test('a dropped tunnel says so and reattaches the session over a new one', async () => {
  await ensureScriptedAgentBuilt();
  const { session, tunnels, received } = tunnel({
    initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
    turns: [{ steps: [{ echo: true }], stopReason: 'end_turn' }],
  });
  try {
    await session.start();
    const sessionId = session.conversation.meta.sessionId;
    process.kill(tunnels()[0].ssh, 'SIGUSR2');
    await until(() => session.snapshotParts().entries.some((e) => e.kind === 'notice'), 'the notice');
    const notice = session.snapshotParts().entries.find((e) => e.kind === 'notice');
    assert.match(notice?.kind === 'notice' ? notice.message : '', /SSH connection failed or was lost \(ssh exited with code 255\)\. Reconnecting…/);
    await until(() => session.status.kind === 'ready', 'reattached', 20_000);
    assert.equal(tunnels().length, 2, 'a new tunnel');
    assert.ok(received().some((m) => m.method === 'session/resume' && (m.params as { sessionId: string }).sessionId === sessionId));
  } finally {
    session.dispose();
  }
});

test('ssh that cannot connect: the error says so, with what ssh printed', async () => {
  await ensureScriptedAgentBuilt();
  const { session } = tunnel({ turns: [] }, { FAKE_SSH_REFUSE: '1' });
  try {
    await session.start();
    assert.equal(session.status.kind, 'stopped');
    const error = session.snapshotParts().entries.find((e) => e.kind === 'error');
    assert.ok(error?.kind === 'error');
    assert.match(error.message, /SSH connection failed or was lost/);
    assert.match(error.detail ?? '', /port 22: Connection refused/);
  } finally {
    session.dispose();
  }
});
