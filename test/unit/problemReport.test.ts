/**
 * The problem report (src/inspector/problemReport.ts): what it says and that nothing an agent or a
 * setting supplied can become markup in it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderProblemReport } from '../../src/inspector/problemReport';

test('the report names versions, the agent, the conformance findings and the stderr tail, escaped', () => {
  const md = renderProblemReport({
    tandemVersion: '0.2.0',
    editor: 'Visual Studio Code 1.100.3',
    platform: 'linux 6.1 x64',
    protocolVersion: 1,
    sdkVersion: '2.4.0',
    agent: {
      name: 'Evil <img src=x onerror=alert(1)>',
      commandLine: 'evil-agent --token [REDACTED]',
      info: { name: 'evil', version: '9.9', title: '**Bold** title' },
    },
    conversation: { title: 'Fix the `build` | now', session: 'sess-1' },
    transcriptFile: 'transcript.jsonl',
    messages: 120,
    dropped: 3,
    redactions: 4,
    conformance: {
      checked: 60,
      warnings: 2,
      errors: 1,
      byRule: { 'unknown-tool-call': 2, 'stop-reason': 1 },
      samples: ['Stop reason "done" is not one of end_turn'],
    },
    errors: ['session/prompt: -32603 Internal error'],
    stderr: ['```', 'panic: boom'],
    createdAt: '2025-01-02T03:04:05.678Z',
  });
  assert.match(md, /^# Tandem problem report\n\nCreated 2025-01-02 03:04:05 UTC\./);
  assert.match(md, /\| Tandem \| `0\.2\.0` \|/);
  assert.match(md, /\| ACP \| `protocol 1, SDK 2\.4\.0` \|/);
  assert.match(md, /\| Name \| Evil \\<img src=x onerror=alert\(1\)\\> \|/, 'HTML in an agent name is escaped');
  assert.match(md, /\| Calls itself \| \\\*\\\*Bold\\\*\\\* title 9\.9 \|/);
  assert.match(md, /Conversation: Fix the \\`build\\` \\\| now \(`sess-1`\)/);
  assert.match(md, /120 messages in `transcript\.jsonl`; 4 values masked\./);
  assert.match(md, /dropped its 3 oldest messages/);
  assert.match(md, /⚠️ Conformance: 60 messages from the agent checked: 1 errors, 2 warnings\./);
  assert.match(md, /\| `unknown-tool-call` \| 2 \|/);
  assert.match(md, /- session\/prompt: -32603 Internal error/);
  assert.match(md, /````text\n```\npanic: boom\n````/, 'the stderr fence is longer than any backticks inside');
  assert.match(md, /Tandem: Replay Transcript…/);
});
