/**
 * The proxy every spawned agent gets (src/util/agentProxy.ts) from the editor's `http.proxy`,
 * `http.noProxy` and `http.proxyStrictSSL` and the environment, the launch that carries it
 * (src/vscode/agents/agentLaunch.ts), and its credentials masked in the launch log, the agent's stderr and
 * Check Agent's report — against a real spawned process.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentProxy, shownProxy } from '../../src/util/agentProxy';
import { AgentProcess } from '../../src/acp/agentProcess';
import { launchSecrets } from '../../src/acp/launchSecrets';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { diagnoseAgent } from '../../src/agents/agentDiagnosis';
import { renderDoctorReport } from '../../src/agents/doctorReport';
import { launchConfigFor } from '../../src/vscode/agents/agentLaunch';
import type { ResolvedAgent } from '../../src/vscode/agents/agentSettings';
import { cleanup, ensureScriptedAgentBuilt, prepareScripted } from '../support/scriptedAgentHarness';

const SETTING = 'http://alice:s3cret-pw@proxy.corp:3128';

describe('agentProxy: which variables an agent gets', () => {
  test("the editor's http.proxy wins over the environment, lower-case twins included", () => {
    const p = agentProxy({ proxy: SETTING }, { entryEnv: {}, env: { HTTPS_PROXY: 'http://old:1', https_proxy: 'http://older:2', PATH: '/bin' } });
    assert.equal(p.env.HTTPS_PROXY, SETTING);
    assert.equal(p.env.HTTP_PROXY, SETTING);
    assert.equal(p.env.https_proxy, SETTING, 'a stale lower-case variable (read first by curl) would contradict it');
    assert.equal(p.env.http_proxy, undefined, 'no twin is invented where the environment has none');
    assert.equal(p.url, SETTING);
    assert.equal(p.origin, 'setting');
    assert.equal(p.env.NODE_TLS_REJECT_UNAUTHORIZED, undefined);
    assert.equal(p.env.NODE_EXTRA_CA_CERTS, undefined, 'NODE_EXTRA_CA_CERTS is left alone');
  });

  test('without a setting the environment reaches the agent as it is: nothing is added', () => {
    const p = agentProxy({}, { entryEnv: {}, env: { https_proxy: 'http://env-proxy:8080', NO_PROXY: 'localhost' } });
    assert.deepEqual(p.env, {});
    assert.equal(p.url, 'http://env-proxy:8080');
    assert.equal(p.origin, 'environment');
    assert.equal(p.noProxy, 'localhost');
    const none = agentProxy({ proxy: '  ' }, { entryEnv: {}, env: {} });
    assert.deepEqual(none, { env: {}, secrets: [] }, 'no proxy anywhere: nothing, not even an origin');
  });

  test('http.noProxy becomes NO_PROXY and wins over the environment; the host list is trimmed', () => {
    const p = agentProxy({ proxy: 'proxy.corp:3128', noProxy: [' localhost ', '.corp', '', '10.0.0.0/8'] }, { entryEnv: {}, env: { no_proxy: 'old.example' } });
    assert.equal(p.env.NO_PROXY, 'localhost,.corp,10.0.0.0/8');
    assert.equal(p.env.no_proxy, 'localhost,.corp,10.0.0.0/8');
    assert.equal(p.noProxy, 'localhost,.corp,10.0.0.0/8');
    assert.equal(p.env.HTTPS_PROXY, 'http://proxy.corp:3128', 'an address without a scheme means http');
  });

  test("the entry's env wins: its proxy variables are not touched, NO_PROXY on its own", () => {
    const own = agentProxy({ proxy: SETTING, noProxy: ['localhost'] }, { entryEnv: { https_proxy: 'http://mine:9' }, env: {} });
    assert.equal(own.env.HTTPS_PROXY, undefined);
    assert.equal(own.env.HTTP_PROXY, undefined, 'one proxy variable of its own means the entry chose its proxy');
    assert.equal(own.env.NO_PROXY, 'localhost', "NO_PROXY is still the editor's when the entry sets none");
    assert.equal(own.url, 'http://mine:9');
    assert.equal(own.origin, 'entry');
    const noProxy = agentProxy({ proxy: SETTING, noProxy: ['localhost'] }, { entryEnv: { NO_PROXY: '*' }, env: {} });
    assert.equal(noProxy.env.NO_PROXY, undefined);
    assert.equal(noProxy.noProxy, '*');
    assert.equal(noProxy.env.HTTPS_PROXY, SETTING);
  });

  test('proxyStrictSSL off is said, never turned into NODE_TLS_REJECT_UNAUTHORIZED', () => {
    const p = agentProxy({ proxy: SETTING, strictSSL: false }, { entryEnv: {}, env: {} });
    assert.equal(p.strictSSLOff, true);
    assert.ok(!Object.keys(p.env).some((k) => k.startsWith('NODE_TLS')));
    assert.equal(agentProxy({ strictSSL: false }, { entryEnv: {}, env: {} }).strictSSLOff, undefined, 'without a proxy it changes nothing');
  });

  test('an agent reached through ssh gets nothing: it runs on another machine', () => {
    const p = agentProxy({ proxy: SETTING }, { entryEnv: {}, env: {}, overSsh: true });
    assert.deepEqual(p.env, {});
    assert.equal(p.elsewhere, true);
  });

  test("the proxy's user and password are its secrets, raw and decoded; the shown address has neither", () => {
    const p = agentProxy({ proxy: 'http://bob%40corp:p%3Ass-word@proxy:3128' }, { entryEnv: {}, env: { HTTPS_PROXY: 'http://envuser:envpass1@x:1' } });
    for (const v of ['bob%40corp', 'bob@corp', 'p%3Ass-word', 'p:ss-word', 'envuser', 'envpass1']) assert.ok(p.secrets.includes(v), v);
    assert.equal(shownProxy(SETTING), 'http://***@proxy.corp:3128');
    assert.equal(shownProxy('http://proxy:3128'), 'http://proxy:3128');
    assert.equal(shownProxy('not a url alice:s3cret'), '***');
  });
});

describe('the launch carries the proxy', () => {
  const ctx = { extensionPath: '/ext', storageDir: '/g', cwd: '/ws', secrets: {}, env: {} };
  const command = (cmd: string, env: Record<string, string> = {}): ResolvedAgent => ({
    name: 'A',
    builtIn: false,
    entry: { kind: 'command', command: cmd, args: [], env },
  });

  test('a command entry gets the variables beside its env (env values stay the only env secrets)', () => {
    const launch = launchConfigFor(command('claude-agent-acp', { ANTHROPIC_API_KEY: 'sk-ant-xyz123456' }), { ...ctx, proxy: { proxy: SETTING } });
    assert.equal(launch.proxy?.env.HTTPS_PROXY, SETTING);
    assert.equal(launch.env.HTTPS_PROXY, undefined);
    const secrets = launchSecrets(launch);
    assert.ok(secrets.includes('alice') && secrets.includes('s3cret-pw'), 'the credentials are masked');
    assert.ok(!secrets.includes(SETTING), 'the address itself is not: the log says which proxy');
  });

  test('a changed setting gives the next launch the new proxy', () => {
    const agent = command('agent');
    assert.equal(launchConfigFor(agent, { ...ctx, proxy: { proxy: 'http://a:1' } }).proxy?.url, 'http://a:1');
    assert.equal(launchConfigFor(agent, { ...ctx, proxy: { proxy: 'http://b:2' } }).proxy?.url, 'http://b:2');
    assert.equal(launchConfigFor(agent, { ...ctx, proxy: {} }).proxy?.url, undefined);
  });

  test('ssh gets nothing added; a replay gets no proxy at all', () => {
    assert.deepEqual(launchConfigFor(command('/usr/bin/ssh'), { ...ctx, proxy: { proxy: SETTING } }).proxy?.env, {});
    const replay: ResolvedAgent = { name: 'R', builtIn: false, entry: { kind: 'command', command: 'node', args: [], env: {}, sandbox: 'replay' } };
    assert.equal(launchConfigFor(replay, { ...ctx, proxy: { proxy: SETTING } }).proxy, undefined);
  });
});

describe('a spawned agent behind the proxy', () => {
  let tmp: string;
  before(async () => {
    await ensureScriptedAgentBuilt();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-proxy-'));
  });
  after(async () => {
    await cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('receives HTTPS_PROXY / NO_PROXY; the launch line names the proxy without its credentials; stderr is masked', async () => {
    const out = path.join(tmp, 'env.json');
    const script = `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env)); console.error('using ' + process.env.HTTPS_PROXY);`;
    const log = new MemoryProtocolLog();
    const proxy = agentProxy({ proxy: SETTING, noProxy: ['localhost'] }, { entryEnv: {} });
    const proc = AgentProcess.start({ name: 'P', command: process.execPath, args: ['-e', script], env: {}, cwd: tmp, proxy }, log);
    await proc.exited;
    const env = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, string>;
    assert.equal(env.HTTPS_PROXY, SETTING);
    assert.equal(env.HTTP_PROXY, SETTING);
    assert.equal(env.NO_PROXY, 'localhost');
    const text = log.lines.map((l) => l.text).join('\n');
    assert.match(text, /Starting agent 'P': .*proxy http:\/\/\*\*\*@proxy\.corp:3128 \(http\.proxy\), NO_PROXY localhost/);
    assert.match(text, /using http:\/\/\*\*\*:\*\*\*@proxy\.corp:3128/, 'the agent printing its proxy is masked too');
    assert.ok(!text.includes('alice') && !text.includes('s3cret-pw'), text);
  });

  test('Check Agent starts the agent with the same proxy and shows it masked', async () => {
    const run = prepareScripted({});
    const proxy = agentProxy({ proxy: SETTING, noProxy: ['.corp'], strictSSL: false }, { entryEnv: run.cfg.env });
    const log = new MemoryProtocolLog();
    const report = await diagnoseAgent(
      { name: 'Scripted', command: run.cfg.command, args: run.cfg.args, env: run.cfg.env, cwd: run.dir, proxy },
      { clientInfo: { name: 't', version: '0' }, log },
    );
    assert.equal(report.start.ok, true, JSON.stringify(report.start));
    assert.deepEqual(report.proxy, { url: 'http://***@proxy.corp:3128', origin: 'setting', noProxy: '.corp', strictSSLOff: true });
    const md = renderDoctorReport(report);
    assert.match(md, /\| Proxy \| `http:\/\/\*\*\*@proxy\.corp:3128` \(from `http\.proxy`\) · `NO_PROXY` `\.corp` \|/);
    assert.match(md, /NODE_EXTRA_CA_CERTS/, 'what to do about proxyStrictSSL off');
    const all = md + log.lines.map((l) => l.text).join('\n');
    assert.ok(!all.includes('alice') && !all.includes('s3cret-pw'));
    const none = await diagnoseAgent(
      { name: 'Scripted', command: run.cfg.command, args: run.cfg.args, env: run.cfg.env, cwd: run.dir, proxy: agentProxy({}, { entryEnv: {}, env: {} }) },
      { clientInfo: { name: 't', version: '0' } },
    );
    assert.match(renderDoctorReport(none), /\| Proxy \| none \(direct connection\) \|/);
  });
});
