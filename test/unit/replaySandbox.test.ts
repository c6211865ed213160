/**
 * A replay is a sandbox (findings 1 and 2 of the security review), through the real core: a
 * ConversationManager whose agent is the bundled replay agent (dist/replayAgent.js) playing a
 * crafted transcript, served by the runtime's replay sandbox. Recorded commands never run, whatever
 * the request's id; recorded writes reach the disk only once the user accepted each, whatever
 * `tandem.reviewEdits` says; writes naming another session are refused; reads are not served.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuleStore } from '../../src/permissions/ruleStore';
import type { Entry } from '../../src/protocol/entryViews';
import { agent, client, handshake, proposals, RECORDED_CWD, replayCrafted, replayNotes, SESSION, type CraftedLine } from '../support/craftedTranscripts';
import { until } from '../support/scriptedSession';

function scratch(): { dir: string; live: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-sandbox-'));
  const live = join(dir, 'live');
  mkdirSync(live);
  return { dir, live, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const ID_KINDS: Array<{ kind: string; id?: unknown }> = [
  { kind: 'null', id: null },
  { kind: 'object', id: { n: 1 } },
  { kind: 'boolean', id: true },
  { kind: 'none' },
  { kind: 'string', id: 'create-s' },
  { kind: 'number', id: 77 },
];

test('terminal/create with any id (null, object, boolean, none, string, number) runs nothing; recorded output is shown', { timeout: 60_000 }, async () => {
  const t = scratch();
  try {
    const lines: CraftedLine[] = [...handshake()];
    for (const { kind, id } of ID_KINDS) {
      const params = { sessionId: SESSION, command: 'sh', args: ['-c', `touch ${RECORDED_CWD}/MARKER-${kind}`], cwd: RECORDED_CWD };
      lines.push(agent({ ...(kind === 'none' ? {} : { id }), method: 'terminal/create', params }));
    }
    // The client's recorded answers, a run in any order (the ones to unusable ids cannot come).
    for (const { kind, id } of ID_KINDS) if (kind !== 'none') lines.push(client({ id, result: { terminalId: `T-${kind}` } }));
    lines.push(agent({ id: 'out-s', method: 'terminal/output', params: { sessionId: SESSION, terminalId: 'T-string' } }));
    lines.push(client({ id: 'out-s', result: { output: 'recorded output\n', truncated: false, exitStatus: { exitCode: 3, signal: null } } }));
    const s = await replayCrafted(t.dir, t.live, lines);
    try {
      for (const { kind } of ID_KINDS) assert.equal(existsSync(join(t.live, `MARKER-${kind}`)), false, `terminal/create with a ${kind} id ran its command`);
      const terminals = Object.values(s.session.conversation.snapshot().terminals);
      // The two requests got a display terminal (the notification is no request: the client ignores it).
      assert.equal(terminals.length, 2, JSON.stringify(terminals));
      const shown = terminals.find((x) => x.output === 'recorded output\n');
      assert.equal(shown?.exit?.exitCode, 3);
      assert.match(shown?.command ?? '', /replayed: not run/);
      const notes = replayNotes(s);
      for (const kind of ['null', 'object', 'boolean'])
        assert.match(notes, /is not a valid JSON-RPC 2.0 message \(the request's id .* is not a string or a number\); not sent/, kind);
      assert.doesNotMatch(notes, /diverged/);
    } finally {
      s.session.dispose();
    }
  } finally {
    t.done();
  }
});

function writeTranscript(): CraftedLine[] {
  const write = (id: string, sessionId: string, rel: string, content: string) =>
    agent({ id, method: 'fs/write_text_file', params: { sessionId, path: `${RECORDED_CWD}/${rel}`, content } });
  return [
    ...handshake(),
    write('w1', SESSION, '.vscode/settings.json', '{"tandem.agents":{"x":{"command":"sh","args":["-c","id > ./pwned"]}}}'),
    write('w2', 'not-a-session', '.git/hooks-evil', '#!/bin/sh\ntouch PWNED\n'),
    write('w3', SESSION, '.git/config', '[core]\n\tfsmonitor = touch PWNED\n'),
    write('w4', SESSION, 'notes.txt', 'written by the replay\n'),
    ...['w1', 'w2', 'w3', 'w4'].map((id) => client({ id, result: {} })),
  ];
}

for (const reviewEdits of ['after', 'before'] as const) {
  test(
    `recorded writes wait for the user (reviewEdits "${reviewEdits}"); only the accepted one is written, another session's is refused`,
    { timeout: 60_000 },
    async () => {
      const t = scratch();
      mkdirSync(join(t.live, '.git'));
      writeFileSync(join(t.live, '.git', 'config'), '[core]\n');
      let checked = false;
      try {
        const s = await replayCrafted(t.dir, t.live, writeTranscript(), {
          reviewEdits,
          answer: (session) => {
            const pending = proposals(session).filter((p) => p.permission?.state.kind === 'pending');
            if (!checked) {
              // Asked before anything was written: two proposals; the write inside .git and the other
              // session's are refused outright, never proposed.
              if (pending.length < 2) return;
              checked = true;
              assert.equal(existsSync(join(t.live, '.vscode', 'settings.json')), false);
              assert.equal(existsSync(join(t.live, 'notes.txt')), false);
              assert.equal(readFileSync(join(t.live, '.git', 'config'), 'utf8'), '[core]\n');
              const diff = pending.find((p) => p.locations[0]?.path === join(t.live, 'notes.txt'))?.content[0];
              assert.equal(diff?.type, 'diff', 'the proposal shows the text to be written');
            }
            for (const p of pending)
              session.session.respondPermission(p.permission!.requestId, p.locations[0]?.path.endsWith('notes.txt') ? 'accept' : 'reject');
          },
        });
        try {
          assert.ok(checked, 'the writes were proposed');
          assert.equal(proposals(s).length, 2);
          assert.equal(readFileSync(join(t.live, 'notes.txt'), 'utf8'), 'written by the replay\n');
          assert.equal(existsSync(join(t.live, '.vscode', 'settings.json')), false);
          assert.equal(existsSync(join(t.live, '.git', 'hooks-evil')), false);
          assert.equal(readFileSync(join(t.live, '.git', 'config'), 'utf8'), '[core]\n');
          assert.ok(s.log.of('warn').some((l) => /fs\/write_text_file for session not-a-session refused/.test(l)));
          assert.match(replayNotes(s), /a recorded file write was rejected/);
          assert.equal(s.session.status.kind, 'ready', 'the replay goes on');
        } finally {
          s.session.dispose();
        }
      } finally {
        t.done();
      }
    },
  );
}

test("file reads are not served to a replay: the user's file stays out of the log, and the replay says so once", { timeout: 60_000 }, async () => {
  const t = scratch();
  writeFileSync(join(t.live, 'secret.txt'), 'TOP-SECRET-CONTENT\n');
  try {
    const read = (id: string) => agent({ id, method: 'fs/read_text_file', params: { sessionId: SESSION, path: `${RECORDED_CWD}/secret.txt` } });
    const lines = [
      ...handshake(),
      read('r1'),
      client({ id: 'r1', result: { content: 'recorded' } }),
      read('r2'),
      client({ id: 'r2', result: { content: 'recorded' } }),
    ];
    const s = await replayCrafted(t.dir, t.live, lines);
    try {
      await until(() => s.log.lines.filter((l) => l.level === 'out' && l.text.includes('replaySandbox')).length === 2, 'both reads answered');
      assert.doesNotMatch(s.log.toString(), /TOP-SECRET-CONTENT/);
      const notes = replayNotes(s);
      assert.equal(notes.match(/does not serve file reads/g)?.length, 1, notes);
      assert.doesNotMatch(notes, /answered request .* with an error/);
      assert.equal((s.session.conversation.snapshot().entries as Entry[]).filter((e) => e.kind === 'error').length, 0);
    } finally {
      s.session.dispose();
    }
  } finally {
    t.done();
  }
});

test("a saved rule allowing every agent's edits does not answer a replay's write: the user still decides", { timeout: 60_000 }, async () => {
  const t = scratch();
  try {
    const store = new RuleStore({ globalFile: join(t.dir, 'global.json'), workspaceFile: join(t.dir, 'ws.json') });
    await store.load();
    const added = await store.add({ agent: '*', toolKind: 'edit', matcher: { type: 'pathGlob', glob: '**' }, decision: 'allow', scope: 'workspace' });
    assert.ok(added.ok);
    const lines = [
      ...handshake(),
      agent({ id: 'w', method: 'fs/write_text_file', params: { sessionId: SESSION, path: `${RECORDED_CWD}/notes.txt`, content: '{}' } }),
      client({ id: 'w', result: {} }),
    ];
    let asked = false;
    const s = await replayCrafted(t.dir, t.live, lines, {
      rules: { store, workspaceRoot: t.live, trusted: () => true },
      answer: (session) => {
        const pending = proposals(session).find((p) => p.permission?.state.kind === 'pending');
        if (!pending) return;
        asked = true;
        assert.equal(existsSync(join(t.live, 'notes.txt')), false);
        session.session.respondPermission(pending.permission!.requestId, 'reject');
      },
    });
    try {
      assert.ok(asked, 'the write was put to the user');
      assert.equal(proposals(s)[0]?.permission?.rule, undefined, 'no rule answered');
      assert.equal(existsSync(join(t.live, 'notes.txt')), false);
    } finally {
      s.session.dispose();
    }
  } finally {
    t.done();
  }
});
