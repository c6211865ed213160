/**
 * Agents from the ACP registry (src/agents/): validating the untrusted index, the hourly cache and
 * the offline fallbacks, install plans per platform, real downloads from a local server (sha256,
 * tar.gz / zip / raw, executable bit, unsafe archives refused, through a proxy), and the version
 * bookkeeping behind update, rollback and uninstall.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentInstallService, ChecksumError } from '../../src/agents/agentInstallService';
import { ArchiveError } from '../../src/agents/archive';
import { downloadFile, HttpError, proxyFor } from '../../src/agents/httpClient';
import { compareVersions, installPlans, pinnedSpec, platformKey, unavailableReason } from '../../src/agents/installPlan';
import type { BinaryPlan, InstallPlan, PackagePlan } from '../../src/agents/installPlan';
import { RegistryClient } from '../../src/agents/registryClient';
import { parseRegistry, RegistryFormatError } from '../../src/agents/registryParse';
import type { RegistryAgent } from '../../src/agents/registryTypes';
import { makeTarGz, makeZip, sampleRegistry, sha256, startConnectProxy, startServer } from '../support/registryFixtures';
import type { TestServer } from '../support/registryFixtures';

let server: TestServer;
let root: string;
before(async () => {
  server = await startServer();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-registry-'));
});
after(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

let n = 0;
function freshDir(): string {
  const dir = path.join(root, `case-${++n}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function agent(id: string, reg = parseRegistry(sampleRegistry())): RegistryAgent {
  const found = reg.agents.find((a) => a.id === id);
  assert.ok(found, `agent ${id}`);
  return found;
}

const LINUX = { platform: 'linux' as const, arch: 'x64' };
const MAC_ARM = { platform: 'darwin' as const, arch: 'arm64' };
const WINDOWS = { platform: 'win32' as const, arch: 'x64' };

describe('registry: parsing untrusted JSON', () => {
  test('a valid index keeps every agent, sorted by name, with defaults filled in', () => {
    const reg = parseRegistry(sampleRegistry());
    assert.deepEqual(
      reg.agents.map((a) => a.id),
      ['bin-agent', 'node-agent', 'py-agent'],
    );
    assert.equal(reg.formatVersion, '1.0.0');
    assert.deepEqual(reg.problems, []);
    assert.deepEqual(agent('py-agent', reg).distribution.uvx, { package: 'py-agent==0.4.0', args: [], env: {} });
  });

  test('the bundled snapshot parses cleanly', () => {
    const snapshot = JSON.parse(fs.readFileSync(path.join(__dirname, '../../media/registry-snapshot.json'), 'utf8'));
    const reg = parseRegistry(snapshot);
    assert.ok(reg.agents.length >= 5);
    assert.deepEqual(reg.problems, []);
  });

  test('malformed entries are dropped, each with a reason', () => {
    const good = { name: 'X', version: '1.0.0', description: 'd', distribution: { npx: { package: 'x@1.0.0' } } };
    const reg = parseRegistry({
      version: '1.0.0',
      agents: [
        'not an object',
        { ...good, id: 'Bad_Id' },
        { ...good, id: 'no-version', version: 'latest' },
        { ...good, id: 'no-description', description: '' },
        { ...good, id: 'option-package', distribution: { npx: { package: '--registry=https://evil.example' } } },
        { ...good, id: 'git-package', distribution: { npx: { package: 'github:evil/agent' } } },
        { ...good, id: 'wrong-pin', distribution: { npx: { package: 'x@0.9.0' } } },
        { ...good, id: 'escaping-cmd', distribution: { binary: { 'linux-x86_64': { archive: 'https://e.example/a.zip', cmd: '../../bin/sh' } } } },
        { ...good, id: 'http-archive', distribution: { binary: { 'linux-x86_64': { archive: 'http://e.example/a.zip', cmd: './a' } } } },
        { ...good, id: 'bad-sha', distribution: { binary: { 'linux-x86_64': { archive: 'https://e.example/a.zip', cmd: './a', sha256: 'abc' } } } },
        { ...good, id: 'bad-args', distribution: { uvx: { package: 'x', args: [1, 2] } } },
        { ...good, id: 'ok' },
        { ...good, id: 'ok', name: 'Duplicate' },
      ],
    });
    assert.deepEqual(
      reg.agents.map((a) => a.id),
      ['ok'],
    );
    const reasons = new Map(reg.problems.filter((p) => p.dropped).map((p) => [p.entry, p.reason]));
    assert.match(reasons.get('#0') ?? '', /not an object/);
    assert.match(reasons.get('#1') ?? '', /invalid "id"/);
    assert.match(reasons.get('no-version') ?? '', /version/);
    assert.match(reasons.get('no-description') ?? '', /description/);
    for (const id of ['option-package', 'git-package', 'wrong-pin', 'escaping-cmd', 'http-archive', 'bad-sha', 'bad-args']) {
      assert.match(reasons.get(id) ?? '', /no usable distribution/, id);
    }
    assert.ok(reg.problems.some((p) => p.entry === 'wrong-pin' && /pins 0\.9\.0/.test(p.reason)));
    assert.ok(reg.problems.some((p) => p.entry === 'escaping-cmd' && /"cmd"/.test(p.reason)));
    assert.ok(reg.problems.some((p) => p.entry === 'ok' && /duplicate id/.test(p.reason)));
  });

  test('bad optional parts are left out without dropping the agent', () => {
    const reg = parseRegistry({
      version: '1.0.0',
      agents: [
        {
          id: 'partial',
          name: 'Partial\u0007 Agent',
          version: '1.0.0',
          description: 'd',
          icon: 'javascript:alert(1)',
          repository: 'https://example.com/r',
          distribution: {
            npx: { package: 'partial@1.0.0', env: { LD_PRELOAD: '/tmp/x.so', NODE_OPTIONS: '--require x', 'BAD NAME': 'x', PARTIAL_MODE: 'acp' } },
            binary: { 'freebsd-x86_64': { archive: 'https://e.example/a', cmd: './a' }, 'linux-x86_64': { archive: 'https://e.example/a.tgz', cmd: 'bin/a' } },
            bunx: { package: 'partial' },
          },
        },
      ],
    });
    const a = reg.agents[0];
    assert.equal(a.name, 'Partial Agent');
    assert.equal(a.icon, undefined);
    assert.equal(a.repository, 'https://example.com/r');
    assert.deepEqual(a.distribution.npx?.env, { PARTIAL_MODE: 'acp' });
    assert.deepEqual(Object.keys(a.distribution.binary ?? {}), ['linux-x86_64']);
    assert.ok(reg.problems.every((p) => !p.dropped));
    assert.ok(reg.problems.some((p) => /LD_PRELOAD ignored \(reserved\)/.test(p.reason)));
    assert.ok(reg.problems.some((p) => /freebsd-x86_64/.test(p.reason)));
    assert.ok(reg.problems.some((p) => /bunx/.test(p.reason)));
  });

  test('an index without an agents list is unusable as a whole', () => {
    assert.throws(() => parseRegistry([]), RegistryFormatError);
    assert.throws(() => parseRegistry({ version: '1.0.0' }), RegistryFormatError);
  });
});

describe('registry: cache and offline fallback', () => {
  const snapshotFile = (): string => {
    const file = path.join(freshDir(), 'snapshot.json');
    const reg = sampleRegistry();
    fs.writeFileSync(file, JSON.stringify({ ...reg, snapshotTakenAt: '2026-02-07T00:00:00.000Z', agents: (reg.agents as unknown[]).slice(0, 1) }));
    return file;
  };

  test('fetched once, then served from the cache for an hour, then refreshed', async () => {
    server.routes.set('/fresh/registry.json', { body: JSON.stringify(sampleRegistry()) });
    let now = 1_000_000;
    const client = new RegistryClient({ url: server.url('/fresh/registry.json'), cacheFile: path.join(freshDir(), 'cache.json'), now: () => now });
    const first = await client.load();
    assert.equal(first.origin, 'network');
    assert.equal(first.agents.length, 3);
    now += 59 * 60_000;
    const second = await client.load();
    assert.equal(second.origin, 'cache');
    assert.equal(second.offline, undefined);
    assert.equal(server.hits.get('/fresh/registry.json'), 1);
    now += 2 * 60_000;
    assert.equal((await client.load()).origin, 'network');
    assert.equal(server.hits.get('/fresh/registry.json'), 2);
    assert.equal((await client.load({ refresh: true })).origin, 'network');
    assert.equal(server.hits.get('/fresh/registry.json'), 3);
  });

  test('offline: a stale cache is used and says why', async () => {
    server.routes.set('/flaky/registry.json', { body: JSON.stringify(sampleRegistry()) });
    let now = 5_000_000;
    const client = new RegistryClient({ url: server.url('/flaky/registry.json'), cacheFile: path.join(freshDir(), 'cache.json'), now: () => now });
    await client.load();
    server.routes.set('/flaky/registry.json', { status: 503, body: 'down' });
    now += 3 * 60 * 60_000;
    const stale = await client.load();
    assert.equal(stale.origin, 'cache');
    assert.match(stale.offline ?? '', /503/);
    assert.equal(stale.fetchedAt, 5_000_000);
    assert.equal(stale.agents.length, 3);
  });

  test('offline without a cache: the bundled snapshot, dated by the snapshot itself', async () => {
    const client = new RegistryClient({
      url: 'http://127.0.0.1:1/registry.json',
      cacheFile: path.join(freshDir(), 'cache.json'),
      snapshotFile: snapshotFile(),
    });
    const loaded = await client.load();
    assert.equal(loaded.origin, 'snapshot');
    assert.match(loaded.offline ?? '', /Could not reach 127\.0\.0\.1:1/);
    assert.equal(loaded.fetchedAt, Date.parse('2026-02-07T00:00:00.000Z'));
    assert.equal(loaded.agents.length, 1);
  });

  test('a broken answer or a corrupt cache counts as offline; nothing at all is an error', async () => {
    server.routes.set('/broken/registry.json', { body: '{"agents": [' });
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, 'cache.json'), 'not json');
    const client = new RegistryClient({ url: server.url('/broken/registry.json'), cacheFile: path.join(dir, 'cache.json'), snapshotFile: snapshotFile() });
    const loaded = await client.load();
    assert.equal(loaded.origin, 'snapshot');
    assert.match(loaded.offline ?? '', /not valid JSON/);
    const bare = new RegistryClient({ url: server.url('/broken/registry.json'), cacheFile: path.join(dir, 'none.json') });
    await assert.rejects(bare.load(), /could not be loaded/);
  });

  test('the cache of another registry URL is not used', async () => {
    server.routes.set('/one/registry.json', { body: JSON.stringify(sampleRegistry()) });
    const cacheFile = path.join(freshDir(), 'cache.json');
    await new RegistryClient({ url: server.url('/one/registry.json'), cacheFile }).load();
    const other = new RegistryClient({ url: 'http://127.0.0.1:1/other.json', cacheFile });
    await assert.rejects(other.load(), /could not be loaded/);
  });
});

describe('install plans per platform', () => {
  test('platform keys', () => {
    assert.equal(platformKey(LINUX), 'linux-x86_64');
    assert.equal(platformKey(MAC_ARM), 'darwin-aarch64');
    assert.equal(platformKey({ platform: 'win32', arch: 'arm64' }), 'windows-aarch64');
    assert.equal(platformKey({ platform: 'freebsd', arch: 'x64' }), undefined);
    assert.equal(platformKey({ platform: 'linux', arch: 'ia32' }), undefined);
  });

  test('npx: a pinned `npx -y package@version` entry with the registry args and env, on every platform', () => {
    for (const machine of [LINUX, MAC_ARM, WINDOWS]) {
      const [plan] = installPlans(agent('node-agent'), machine) as PackagePlan[];
      assert.equal(plan.kind, 'npx');
      assert.deepEqual(plan.entry, { command: 'npx', args: ['-y', '@acme/node-agent@1.2.3', '--acp'], env: { ACME_MODE: 'acp' } });
    }
  });

  test('uvx: `uvx package==version`; an unpinned package gets @version; cmd uses --from / --package', () => {
    const [plan] = installPlans(agent('py-agent'), LINUX) as PackagePlan[];
    assert.deepEqual(plan.entry, { command: 'uvx', args: ['py-agent==0.4.0'], env: {} });
    assert.equal(pinnedSpec('py-agent', 'uvx', '0.4.0'), 'py-agent@0.4.0');
    assert.equal(pinnedSpec('@acme/x', 'npx', '1.0.0'), '@acme/x@1.0.0');
    const withCmd = parseRegistry({
      agents: [
        {
          id: 'c',
          name: 'C',
          version: '1.0.0',
          description: 'd',
          distribution: { uvx: { package: 'c-tools[acp]', cmd: 'c-acp' }, npx: { package: '@c/tools', cmd: 'c-acp', args: ['--stdio'] } },
        },
      ],
    }).agents[0];
    const [npx, uvx] = installPlans(withCmd, LINUX) as PackagePlan[];
    assert.deepEqual(npx.entry.args, ['-y', '--package', '@c/tools@1.0.0', 'c-acp', '--stdio']);
    assert.deepEqual(uvx.entry.args, ['--from', 'c-tools[acp]@1.0.0', 'c-acp']);
  });

  test('binary: the target of this platform; Rosetta fallback on Apple Silicon; none elsewhere', () => {
    const bin = agent('bin-agent');
    const [linux] = installPlans(bin, LINUX) as BinaryPlan[];
    assert.equal(linux.platform, 'linux-x86_64');
    assert.equal(linux.target.cmd, './bin-agent');
    assert.equal((installPlans(bin, WINDOWS)[0] as BinaryPlan).target.cmd, './bin-agent.exe');
    const [mac] = installPlans(bin, MAC_ARM) as BinaryPlan[];
    assert.equal(mac.platform, 'darwin-x86_64');
    assert.equal(mac.emulated, 'Rosetta 2');
    assert.deepEqual(installPlans(bin, { platform: 'linux', arch: 'arm64' }), []);
    assert.match(unavailableReason(bin, { platform: 'linux', arch: 'arm64' }) ?? '', /No build for linux-aarch64/);
  });

  test('binary first, then npx, then uvx', () => {
    const all = parseRegistry({
      agents: [
        {
          id: 'all',
          name: 'All',
          version: '1.0.0',
          description: 'd',
          distribution: { uvx: { package: 'all' }, npx: { package: 'all' }, binary: { 'linux-x86_64': { archive: 'https://e.example/a.zip', cmd: 'a' } } },
        },
      ],
    }).agents[0];
    assert.deepEqual(
      installPlans(all, LINUX).map((p) => p.kind),
      ['binary', 'npx', 'uvx'],
    );
    assert.deepEqual(
      installPlans(all, WINDOWS).map((p) => p.kind),
      ['npx', 'uvx'],
    );
  });

  test('versions compare the semver way', () => {
    assert.ok(compareVersions('1.10.0', '1.9.9') > 0);
    assert.ok(compareVersions('1.0.0-beta.2', '1.0.0') < 0);
    assert.ok(compareVersions('1.0.0-beta.10', '1.0.0-beta.2') > 0);
    assert.equal(compareVersions('2.0.0', '2.0.0'), 0);
  });
});

describe('downloads: sha256, unpacking, executable bit', () => {
  const agentScript = '#!/bin/sh\necho agent\n';

  function binaryPlan(url: string, sha?: string, cmd = './bin-agent'): BinaryPlan {
    return {
      kind: 'binary',
      agentId: 'bin-agent',
      version: '2.0.0',
      platform: 'linux-x86_64',
      summary: '',
      target: { archive: url, cmd, args: ['acp'], env: {}, ...(sha ? { sha256: sha } : {}) },
    };
  }

  function leftovers(dir: string): string[] {
    return fs.readdirSync(dir).filter((f) => f.startsWith('.'));
  }

  test('tar.gz: checked against its sha256, unpacked, the command marked executable', async () => {
    const archive = makeTarGz([
      { name: 'bin-agent', content: agentScript, mode: 0o644 },
      { name: 'lib/', type: 'dir' },
      { name: 'lib/data.txt', content: 'x' },
    ]);
    server.routes.set('/dl/agent.tar.gz', { body: archive });
    const service = new AgentInstallService({ root: freshDir() });
    const prepared = await service.prepare(binaryPlan(server.url('/dl/agent.tar.gz'), sha256(archive)));
    assert.equal(prepared.verified, true);
    assert.match(prepared.dir ?? '', /^bin-agent\/2\.0\.0-[0-9a-f]{8}$/);
    assert.equal(prepared.entry.command, path.join(service.root, prepared.dir ?? '', 'bin-agent'));
    assert.deepEqual(prepared.entry.args, ['acp']);
    assert.equal(fs.readFileSync(prepared.entry.command, 'utf8'), agentScript);
    assert.ok((fs.statSync(prepared.entry.command).mode & 0o111) !== 0, 'executable');
    assert.equal(fs.readFileSync(path.join(path.dirname(prepared.entry.command), 'lib/data.txt'), 'utf8'), 'x');
    assert.deepEqual(leftovers(path.join(service.root, 'bin-agent')), [], 'no temporary files left');
  });

  test('a checksum mismatch is refused and the download removed', async () => {
    server.routes.set('/dl/tampered.tar.gz', { body: makeTarGz([{ name: 'bin-agent', content: 'evil' }]) });
    const service = new AgentInstallService({ root: freshDir() });
    const wrong = sha256('something else');
    await assert.rejects(
      service.prepare(binaryPlan(server.url('/dl/tampered.tar.gz'), wrong)),
      (err: unknown) => err instanceof ChecksumError && err.expected === wrong,
    );
    assert.deepEqual(fs.readdirSync(path.join(service.root, 'bin-agent')), [], 'nothing kept');
  });

  test('zip (behind a redirect): unpacked into a wrapping folder, the command found and made executable', async () => {
    const archive = makeZip([
      { name: 'bin-agent-2.0.0/', type: 'dir' },
      { name: 'bin-agent-2.0.0/bin-agent', content: agentScript, mode: 0o600 },
      { name: 'bin-agent-2.0.0/README', content: 'r' },
    ]);
    server.routes.set('/dl/agent.zip', { body: archive });
    server.routes.set('/dl/latest.zip', { status: 302, headers: { location: '/dl/agent.zip' } });
    const service = new AgentInstallService({ root: freshDir() });
    const prepared = await service.prepare(binaryPlan(server.url('/dl/latest.zip'), sha256(archive)));
    assert.ok(prepared.entry.command.endsWith(path.join('bin-agent-2.0.0', 'bin-agent')));
    assert.equal(fs.readFileSync(prepared.entry.command, 'utf8'), agentScript);
    assert.ok((fs.statSync(prepared.entry.command).mode & 0o111) !== 0, 'executable');
  });

  test('a raw executable (no archive) without a published checksum: installed, marked unverified', async () => {
    server.routes.set('/dl/bin-agent', { body: '\u007fELF not really' });
    const service = new AgentInstallService({ root: freshDir() });
    const prepared = await service.prepare(binaryPlan(server.url('/dl/bin-agent')));
    assert.equal(prepared.verified, false);
    assert.equal(path.basename(prepared.entry.command), 'bin-agent');
    assert.ok((fs.statSync(prepared.entry.command).mode & 0o111) !== 0);
  });

  test('archives that reach outside their folder are refused, and nothing is kept', async () => {
    const outside = path.join(root, 'escaped.txt');
    server.routes.set('/dl/slip.zip', {
      body: makeZip([
        { name: 'bin-agent', content: 'x' },
        { name: '../../escaped.txt', content: 'pwned' },
      ]),
    });
    server.routes.set('/dl/link.zip', { body: makeZip([{ name: 'bin-agent', type: 'symlink', target: '/etc/passwd' }]) });
    server.routes.set('/dl/slip.tar.gz', {
      body: makeTarGz([
        { name: 'bin-agent', content: 'x' },
        { name: '../../escaped.txt', content: 'pwned' },
      ]),
    });
    for (const route of ['/dl/slip.zip', '/dl/link.zip', '/dl/slip.tar.gz']) {
      const service = new AgentInstallService({ root: freshDir() });
      await assert.rejects(
        service.prepare(binaryPlan(server.url(route))),
        (err: unknown) => err instanceof ArchiveError && /outside|relative path|\.\./i.test(err.message),
        route,
      );
      assert.deepEqual(fs.readdirSync(path.join(service.root, 'bin-agent')), [], route);
    }
    assert.equal(fs.existsSync(outside), false);
  });

  test('an archive without the named command is refused', async () => {
    server.routes.set('/dl/empty.tar.gz', { body: makeTarGz([{ name: 'other', content: 'x' }]) });
    const service = new AgentInstallService({ root: freshDir() });
    await assert.rejects(service.prepare(binaryPlan(server.url('/dl/empty.tar.gz'))), /has no \.\/bin-agent/);
  });

  test('http errors, plain http to other hosts, and cancellation', async () => {
    const file = path.join(freshDir(), 'f');
    await assert.rejects(downloadFile(server.url('/dl/missing'), file), (err: unknown) => err instanceof HttpError && err.status === 404);
    await assert.rejects(downloadFile('http://example.com/a', file), /only https/);
    server.routes.set('/dl/big', { body: Buffer.alloc(1024 * 1024) });
    const controller = new AbortController();
    await assert.rejects(downloadFile(server.url('/dl/big'), file, { signal: controller.signal, onProgress: () => controller.abort() }), {
      name: 'AbortError',
    });
    assert.equal(fs.existsSync(file), false, 'partial download removed');
  });

  test('through a proxy (CONNECT), from the setting or HTTPS_PROXY; NO_PROXY bypasses it', async () => {
    const proxy = await startConnectProxy();
    try {
      server.routes.set('/dl/proxied', { body: 'via proxy' });
      const file = path.join(freshDir(), 'p');
      const { bytes } = await downloadFile(server.url('/dl/proxied'), file, { proxy: proxy.url });
      assert.equal(bytes, 9);
      assert.equal(proxy.targets.length, 1);
      assert.match(proxy.targets[0], /^127\.0\.0\.1:\d+$/);
      await downloadFile(server.url('/dl/proxied'), file, { env: { HTTP_PROXY: proxy.url } });
      assert.equal(proxy.targets.length, 2);
      await downloadFile(server.url('/dl/proxied'), file, { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } });
      assert.equal(proxy.targets.length, 2, 'NO_PROXY bypassed the proxy');
    } finally {
      await proxy.close();
    }
    assert.equal(proxyFor('https://cdn.example.com/x', { env: { HTTPS_PROXY: 'proxy.corp:3128' } }), 'http://proxy.corp:3128');
    assert.equal(proxyFor('https://cdn.example.com/x', { proxy: 'http://setting:1', env: { HTTPS_PROXY: 'http://env:2' } }), 'http://setting:1');
    assert.equal(proxyFor('https://cdn.example.com/x', { env: { HTTPS_PROXY: 'http://env:2', NO_PROXY: '.example.com' } }), undefined);
    assert.equal(proxyFor('https://cdn.example.com/x', { env: { https_proxy: 'http://env:2', no_proxy: 'other.org' } }), 'http://env:2');
    assert.equal(proxyFor('https://cdn.example.com/x', { env: {} }), undefined);
  });
});

describe('installed versions: update, rollback, uninstall', () => {
  function npxPlan(version: string): InstallPlan {
    return {
      kind: 'npx',
      runtime: 'npx',
      agentId: 'node-agent',
      version,
      summary: '',
      entry: { command: 'npx', args: ['-y', `@acme/node-agent@${version}`], env: {} },
    };
  }

  test('an update keeps the previous version; rollback swaps them; a second rollback rolls forward', async () => {
    const dir = freshDir();
    const service = new AgentInstallService({ root: dir, now: () => new Date('2026-01-01T00:00:00Z') });
    await service.commit(await service.prepare(npxPlan('1.0.0')), 'Node Agent');
    const updated = await service.commit(await service.prepare(npxPlan('1.1.0')), 'Node Agent');
    assert.equal(updated.current.version, '1.1.0');
    assert.equal(updated.previous?.version, '1.0.0');
    const back = await service.rollback('node-agent');
    assert.equal(back.current.version, '1.0.0');
    assert.deepEqual(back.current.entry.args, ['-y', '@acme/node-agent@1.0.0']);
    assert.equal(back.previous?.version, '1.1.0');
    assert.equal((await service.rollback('node-agent')).current.version, '1.1.0');
    // Reinstalling the same version keeps the previous one.
    const again = await service.commit(await service.prepare(npxPlan('1.1.0')), 'Node Agent');
    assert.equal(again.previous?.version, '1.0.0');
    // The record survives a restart (a new service over the same folder).
    const reloaded = new AgentInstallService({ root: dir });
    await reloaded.installed.load();
    assert.deepEqual(reloaded.installed.get('node-agent'), again);
    assert.equal(reloaded.installed.bySettingsName('Node Agent')?.id, 'node-agent');
  });

  test('binary versions: two kept on disk, older ones deleted; uninstall deletes the rest', async () => {
    const archive = makeTarGz([{ name: 'bin-agent', content: '#!/bin/sh\n' }]);
    server.routes.set('/dl/versions.tar.gz', { body: archive });
    const dir = freshDir();
    const service = new AgentInstallService({ root: dir });
    const plan = (version: string): BinaryPlan => ({
      kind: 'binary',
      agentId: 'bin-agent',
      version,
      platform: 'linux-x86_64',
      summary: '',
      target: { archive: server.url('/dl/versions.tar.gz'), cmd: 'bin-agent', args: [], env: {}, sha256: sha256(archive) },
    });
    const dirs: string[] = [];
    for (const v of ['1.0.0', '2.0.0', '3.0.0']) {
      const prepared = await service.prepare(plan(v));
      dirs.push(prepared.dir ?? '');
      await service.commit(prepared, 'Bin Agent');
    }
    assert.equal(fs.existsSync(path.join(dir, dirs[0])), false, 'the oldest version was deleted');
    assert.ok(fs.existsSync(path.join(dir, dirs[1])) && fs.existsSync(path.join(dir, dirs[2])));
    const back = await service.rollback('bin-agent');
    assert.equal(back.current.version, '2.0.0');
    assert.ok(fs.existsSync(back.current.entry.command), 'the rolled-back entry still runs from disk');
    // A prepared version that is never used is thrown away.
    const unused = await service.prepare(plan('4.0.0'));
    await service.discard(unused);
    assert.equal(fs.existsSync(path.join(dir, unused.dir ?? '')), false);
    const removed = await service.uninstall('bin-agent');
    assert.equal(removed?.settingsName, 'Bin Agent');
    assert.equal(fs.existsSync(path.join(dir, 'bin-agent')), false, 'all of its files are gone');
    assert.equal(service.installed.get('bin-agent'), undefined);
    assert.equal(await service.uninstall('bin-agent'), undefined);
    await assert.rejects(service.rollback('bin-agent'), /no earlier version/);
  });

  test('a corrupt or hostile state file is read defensively', async () => {
    const dir = freshDir();
    fs.writeFileSync(
      path.join(dir, 'installed.json'),
      JSON.stringify({
        version: 1,
        agents: [
          { id: 'a', settingsName: 'A', current: { version: '1.0.0', kind: 'npx', entry: { command: 'npx', args: ['a'] }, dir: '../../etc' } },
          { id: 'b', settingsName: 'B', current: { version: '1.0.0', kind: 'shell', entry: { command: 'sh', args: [] } } },
          'junk',
        ],
      }),
    );
    const service = new AgentInstallService({ root: dir });
    await service.installed.load();
    assert.deepEqual(
      service.installed.list().map((a) => a.id),
      ['a'],
    );
    assert.equal(service.installed.get('a')?.current.dir, undefined, 'a folder outside the root is never kept');
    assert.deepEqual(service.installed.get('a')?.current.entry.env, {});
  });
});
