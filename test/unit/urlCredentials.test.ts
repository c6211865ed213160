/**
 * Finding 10 of the security review: a key in an agent's address (`?code=…` of Azure Functions,
 * `user:pass@`, `?token=`) must not reach the protocol log, the inspector, an exported transcript,
 * Check Agent's report, the problem report or the pickers. A hosted entry is launched as the
 * extension launches it (launchConfigFor + the real bundled bridge) against the fake hosted
 * server, through the real core, with the editor's MaskedLog fed what EditorHost feeds it
 * (entrySecrets) and teed into a WireStore.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { ConversationManager } from '../../src/conversation/conversationManager';
import { describeEntry, type HostedEntry, type RemoteEntry } from '../../src/agents/agentEntry';
import { diagnoseAgent } from '../../src/agents/agentDiagnosis';
import { renderDoctorReport } from '../../src/agents/doctorReport';
import { renderProblemReport } from '../../src/inspector/problemReport';
import { exportTranscript } from '../../src/inspector/transcriptExport';
import { WireStore } from '../../src/inspector/wireStore';
import { entrySecrets, launchConfigFor } from '../../src/vscode/agents/agentLaunch';
import { MaskedLog } from '../../src/vscode/core/maskedLog';
import { testEditorPorts } from '../support/editorPorts';
import { useHostedExtension } from '../support/hostedExtension';

const CODE = 'AzFnKey0123456789abcdefXYZ';
const rig = useHostedExtension('tandem-url-secrets-');

const lines = (): { lines: string[]; info: (t: string) => void; warn: (t: string) => void; error: (t: string) => void } => {
  const out: string[] = [];
  return { lines: out, info: (t) => out.push(t), warn: (t) => out.push(t), error: (t) => out.push(t) };
};

test(
  'a hosted agent’s `?code=` key is not in the protocol log, the inspector, the export, Check Agent’s report or the picker',
  { timeout: 90_000 },
  async () => {
    const entry: HostedEntry = { kind: 'hosted', url: `${rig.server.chatUrl}?code=${CODE}`, format: 'tool-events', headers: {}, stream: true };
    const agent = { name: 'Functions bot', entry, builtIn: false };
    const workspace = mkdtempSync(join(rig.dir, 'ws-'));
    const launch = () => launchConfigFor(agent, { extensionPath: join(rig.dir, 'ext'), storageDir: join(rig.dir, 'storage'), cwd: workspace, secrets: {} });
    const main = lines();
    const protocol = lines();
    const log = new MaskedLog(main, protocol);
    const store = new WireStore();
    log.tee(store);
    log.setSecrets(entrySecrets(agent));
    const manager = new ConversationManager({
      agents: { launchConfig: (name) => (name === agent.name ? launch() : undefined), defaultName: () => agent.name },
      store: undefined,
      cwd: workspace,
      log,
      clientInfo: { name: 'tandem-test', version: '0' },
      editor: testEditorPorts([workspace]),
    });
    try {
      await manager.init();
      await manager.active!.connect();
      const init = [...store.since()].find((r) => r.dir === 'in' && r.kind === 'response' && r.raw.includes('"hosted"'));
      assert.ok(init, 'the bridge answered initialize');
      assert.match(init.raw, /"url":"http:\/\/127\.0\.0\.1:\d+\/api\/v1\/chat\?code=\*\*\*"/, 'the bridge repeats its address shown, not whole');
      const everything = [...store.since()].map((r) => r.raw).join('\n') + protocol.lines.join('\n') + main.lines.join('\n');
      assert.ok(!everything.includes(CODE), 'the key is in the log or the inspector');
      const { text } = await exportTranscript(store, undefined, { scope: {}, tandemVersion: '0', protocolVersion: 1, secrets: log.secretValues() });
      assert.ok(!text.includes(CODE), 'the exported transcript keeps the key');

      const picker = describeEntry(entry);
      assert.ok(!picker.includes(CODE), picker);
      assert.match(picker, /\?code=\*\*\* \(tool-events\)$/);
      const problem = renderProblemReport({
        tandemVersion: '0',
        editor: 'e',
        platform: 'p',
        protocolVersion: 1,
        agent: { name: agent.name, commandLine: picker },
        transcriptFile: 'transcript.jsonl',
        messages: 0,
        dropped: 0,
        redactions: 0,
        conformance: { checked: 0, warnings: 0, errors: 0, byRule: {}, samples: [] },
        errors: [],
        stderr: [],
        createdAt: new Date().toISOString(),
      });
      assert.ok(!problem.includes(CODE), 'the problem report’s Command row keeps the key');

      // Check Agent runs the bridge's own check: its Address row is the shown address.
      const target = launch();
      const report = await diagnoseAgent({ ...target, cwd: workspace }, { clientInfo: { name: 't', version: '0' }, timeoutMs: 30_000 });
      assert.ok(report.hosted && 'result' in report.hosted, JSON.stringify(report.start));
      const rendered = renderDoctorReport(report);
      assert.match(rendered, /\?code=\*\*\*/);
      assert.ok(!rendered.includes(CODE), 'Check Agent’s report keeps the key');
    } finally {
      manager.dispose();
    }
  },
);

test('a remote address’s user, password and token are not in the picker text, and are among the entry’s secrets', () => {
  const entry: RemoteEntry = { kind: 'remote', url: 'wss://alice:hunter2pass@sandbox.example.com/acp?token=tok-9f8e7d6c5b4a', headers: {}, clientTools: true };
  assert.equal(describeEntry(entry), 'wss://sandbox.example.com/acp?token=***');
  const secrets = entrySecrets({ name: 'Sandbox', entry, builtIn: false });
  for (const v of ['hunter2pass', 'tok-9f8e7d6c5b4a']) assert.ok(secrets.includes(v), v);
});
