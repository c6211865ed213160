/**
 * A permission prompt speaks the card's words: over a real scripted agent that asks as Cline does
 * (the request is the first mention of the call, titled with raw JSON and an absolute path), the
 * notification and the prompt name "Edit hello.txt", and the card's location is the file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionNotice } from '../../src/conversation/ports';
import type { ToolCallEntry } from '../../src/protocol/messages';
import { scriptedSession, until } from '../support/scriptedSession';
import { ensureScriptedAgentBuilt } from '../support/scriptedAgentHarness';

let dir: string;
before(async () => {
  await ensureScriptedAgentBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tandem-permission-titles-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the notification and the prompt use the derived title; the path is the workspace-relative one', async () => {
  const notices: PermissionNotice[] = [];
  const toolCall = {
    toolCallId: 'call_step1_0',
    kind: 'edit',
    status: 'pending',
    title: 'editor: {"command":"replace","path":"${cwd}/hello.txt","old...',
    rawInput: { command: 'replace', path: '${cwd}/hello.txt', old_text: 'status: draft', new_text: 'status: reviewed' },
  };
  const options = [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  ];
  const r = scriptedSession(
    dir,
    { turns: [{ steps: [{ permission: { toolCall, options } }] }] },
    { extra: { permissionRequested: (_id, notice) => notices.push(notice) } },
  );
  try {
    await r.session.start();
    r.session.conversation.prompt('go');
    await until(() => notices.length > 0, 'the notice');
    assert.equal(notices[0].title, 'Edit hello.txt');
    const card = r.session.conversation.internals.thread.entries().find((e): e is ToolCallEntry => e.kind === 'tool_call')!;
    assert.equal(card.title, 'Edit hello.txt');
    assert.match(card.agentTitle ?? '', /^editor: \{"command":"replace"/);
    assert.deepEqual(
      card.locations.map((l) => [l.shown, l.fromInput]),
      [['hello.txt', true]],
    );
    r.session.respondPermission(card.permission!.requestId, 'allow_once');
    await r.session.settled();
  } finally {
    r.session.dispose();
  }
});
