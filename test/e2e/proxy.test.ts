// Agents behind a proxy (issue 36): VS Code's `http.proxy` and `http.noProxy` reach a spawned agent
// as HTTPS_PROXY / HTTP_PROXY / NO_PROXY. Needs its own code-server (the proxy is a user setting).
// A scripted agent answers a prompt; its process's environment (read from /proc) must carry the
// setting's values, and Tandem's output log must name the proxy with its credentials masked.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { scenario, useE2e } from './harness/e2e';
import { listProcesses } from './harness/processes';
import { waitUntil } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';

// Nothing listens on port 9 (discard): the scripted agent makes no request, so nothing is sent there.
const PROXY = 'http://alice:s3cret-pw@127.0.0.1:9';
const e2e = useE2e({ ownServer: { userSettings: { 'http.proxy': PROXY, 'http.noProxy': ['localhost', '.corp.example'] } } });

const MARKER = 'TANDEM_PROXY_MARKER';

/** One process's environment, from /proc. */
function environ(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/** Every file under `dir` (the server's logs). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

scenario(
  e2e,
  "a spawned agent gets HTTPS_PROXY and NO_PROXY from the editor's settings; the log names the proxy without its credentials",
  async (s) => {
    const marker = randomUUID();
    const agent = s.agent({ turns: [{ steps: [say('behind the proxy')], stopReason: 'end_turn' }] });
    const workspace = s.workspace({
      settings: agentSettings('Proxied', { ...agent.config, env: { ...agent.config.env, [MARKER]: marker } }),
      files: { 'README.md': '# proxy\n' },
    });
    const { chat } = await s.open(workspace);
    await chat.send('hello');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    assert.match(await chat.threadText(), /behind the proxy/);

    const agents = listProcesses({ name: MARKER, value: marker }).filter((p) => p.cmdline.includes('scriptedAgent'));
    assert.equal(agents.length, 1, `one agent process carries the marker: ${JSON.stringify(agents)}`);
    const env = environ(agents[0].pid);
    assert.equal(env.HTTPS_PROXY, PROXY);
    assert.equal(env.HTTP_PROXY, PROXY);
    assert.equal(env.NO_PROXY, 'localhost,.corp.example');
    assert.equal(env.NODE_TLS_REJECT_UNAUTHORIZED, undefined);

    let launchLine = '';
    await waitUntil(async () => {
      for (const file of filesUnder(join(e2e.server.userDataDir, 'logs'))) {
        const line = readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => l.includes("Starting agent 'Proxied'"));
        if (line) launchLine = line;
      }
      return launchLine !== '';
    }, "the output log's launch line");
    assert.match(launchLine, /proxy http:\/\/\*\*\*@127\.0\.0\.1:9 \(http\.proxy\), NO_PROXY localhost,\.corp\.example/);
    const logs = filesUnder(join(e2e.server.userDataDir, 'logs'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    assert.ok(!logs.includes('s3cret-pw'), "the proxy's password is in no log");
  },
  180_000,
);
