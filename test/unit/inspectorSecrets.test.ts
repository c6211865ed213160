/**
 * Finding 9 of the security review: the protocol inspector's recording is teed from the editor's
 * log, and it must get what the log writes — masked — not the raw line. A real scripted agent gets
 * one stdio MCP server with a GITHUB_TOKEN in its env (as `tandem.mcpServers` would give it); the
 * log is the editor's MaskedLog (OutputLog without VS Code's channels) fed the same secrets
 * EditorHost feeds it (mcpSecrets of the configured servers), teed into a real WireStore as
 * src/vscode/inspector/inspector.ts tees it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpSecrets, type McpServerSpec } from '../../src/conversation/mcpServers';
import { exportTranscript } from '../../src/inspector/transcriptExport';
import { WireStore } from '../../src/inspector/wireStore';
import { MaskedLog, type LogChannel } from '../../src/vscode/core/maskedLog';
import { ensureScriptedAgentBuilt } from '../support/scriptedAgentHarness';
import { scriptedSession } from '../support/scriptedSession';

let dir = '';
before(async () => {
  await ensureScriptedAgentBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tandem-inspector-secrets-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function channel(): LogChannel & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (t) => lines.push(t), warn: (t) => lines.push(t), error: (t) => lines.push(t) };
}

const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const HEADER = 'mcp-header-secret-7f3a9c';
const URL_KEY = 'docsKey0123456789abcdef';

test('an MCP server’s env and header values are masked in the inspector’s recording, as in the Tandem Protocol channel', { timeout: 60_000 }, async () => {
  const servers: McpServerSpec[] = [
    { name: 'github', source: 'tandem.mcpServers', server: { name: 'github', command: 'github-mcp', args: [], env: [{ name: 'GITHUB_TOKEN', value: TOKEN }] } },
    {
      name: 'docs',
      source: 'tandem.mcpServers',
      server: { type: 'http', name: 'docs', url: `https://docs.example/mcp?key=${URL_KEY}`, headers: [{ name: 'X-Docs', value: HEADER }] },
    },
  ];
  const main = channel();
  const protocol = channel();
  const log = new MaskedLog(main, protocol);
  const store = new WireStore();
  log.tee(store);
  log.setSecrets(mcpSecrets(servers));
  const { session } = scriptedSession(
    dir,
    { initialize: { stderr: `mcp config GITHUB_TOKEN ${TOKEN}`, agentCapabilities: { mcpCapabilities: { http: true } } }, turns: [] },
    { name: 'Scripted', log, extra: { mcpServers: () => servers } },
  );
  try {
    await session.start();
    const records = [...store.since()];
    const sessionNew = records.find((r) => r.method === 'session/new');
    assert.ok(sessionNew, 'session/new was recorded');
    // The agent really was given the servers (else the test proves nothing).
    assert.match(sessionNew.raw, /"name":"GITHUB_TOKEN","value":"\*\*\*"/);
    assert.match(sessionNew.raw, /"name":"X-Docs","value":"\*\*\*"/);
    for (const r of records) {
      assert.ok(
        !r.raw.includes(TOKEN) && !r.raw.includes(HEADER) && !r.raw.includes(URL_KEY),
        `the inspector's record of ${r.method ?? r.kind} keeps a secret: ${r.raw}`,
      );
    }
    assert.doesNotThrow(() => JSON.parse(sessionNew.raw), 'the masked record is still JSON the inspector reads');
    const stderr = store.stderrTail('Scripted', 10);
    assert.ok(
      stderr.some((l) => l.includes('mcp config GITHUB_TOKEN')),
      'the stderr line was recorded',
    );
    assert.ok(!stderr.join('\n').includes(TOKEN), 'the stderr tail keeps the token');
    assert.ok(!protocol.lines.join('\n').includes(TOKEN) && !main.lines.join('\n').includes(TOKEN), 'the channels keep the token');
    const { text } = await exportTranscript(store, undefined, { scope: {}, tandemVersion: '0', protocolVersion: 1, secrets: log.secretValues() });
    assert.ok(!text.includes(TOKEN) && !text.includes(HEADER) && !text.includes(URL_KEY), 'the export keeps a secret');
  } finally {
    session.dispose();
  }
});
