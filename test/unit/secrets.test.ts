/**
 * Values of `tandem.agents[*].env` are secrets: whatever a real agent process does with them
 * (prints them to stderr, echoes them in messages, passes them to a terminal command, crashes
 * with them in its last words), they never reach the protocol log. The panel may show what the
 * agent itself says — that is the agent's content — but the logs are redacted.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedSession, type ScriptedSession } from '../support/scriptedSession';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { ensureScriptedAgentBuilt, waitFor } from '../support/scriptedAgentHarness';

let dir: string;
let preload: string;
before(async () => {
  await ensureScriptedAgentBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tandem-secrets-'));
  // Runs inside the agent process before the agent: it reads its real environment and prints it,
  // as a chatty agent printing its config would — in a full line and in a line with no newline.
  preload = join(dir, 'printEnv.cjs');
  writeFileSync(
    preload,
    `process.stderr.write('config: ANTHROPIC_API_KEY=' + process.env.ANTHROPIC_API_KEY + ' token=' + process.env.OTHER_TOKEN + '\\n');
     process.on('exit', () => process.stderr.write('dying with key ' + process.env.ANTHROPIC_API_KEY));`,
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Random, so the test can look for any long piece of it, not only the whole value. */
const fresh = (prefix: string): string => `${prefix}${randomBytes(24).toString('hex')}`;

/** Every piece of `secret` of `size` characters (beyond a public prefix) found in `text`. */
function leaks(text: string, secret: string, prefixLength: number, size = 12): string[] {
  const found: string[] = [];
  for (let i = prefixLength; i + size <= secret.length; i++) {
    const piece = secret.slice(i, i + size);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

function makeSession(script: AgentScript, env: Record<string, string>): ScriptedSession {
  // The preload prints the agent's env to stderr, like a chatty agent would.
  return scriptedSession(dir, script, { name: 'Secretive', env, nodeArgs: ['--require', preload] });
}

const say = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

test('env values printed to stderr, echoed in messages, tool calls and terminal commands never reach the log', { timeout: 60_000 }, async () => {
  const key = fresh('sk-ant-api03-');
  const token = fresh('tok_');
  const { session, log } = makeSession(
    {
      initialize: { stderr: `init sees ${token}` },
      turns: [
        {
          steps: [
            say(`Your key is ${key}. `),
            { update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `thinking about ${token}` } } },
            {
              update: {
                sessionUpdate: 'tool_call',
                toolCallId: 'c1',
                title: `curl -H "x-api-key: ${key}"`,
                kind: 'execute',
                status: 'in_progress',
                rawInput: { key },
              },
            },
            // The secret goes out as a terminal env var and comes back as output (and in the reply).
            {
              terminal: { command: 'sh', args: ['-c', 'echo "key=$LEAKED"; echo "key to stderr $LEAKED" >&2'], env: [{ name: 'LEAKED', value: key }] },
              toolCallId: 'c1',
            },
            // A line the transport rejects is quoted in a warning: the quote must be redacted too.
            { raw: `not json, but has ${key} in it` },
            { raw: JSON.stringify({ jsonrpc: '2.0', id: 'x', method: `unknown/${token}`, params: { key } }) },
            { update: { sessionUpdate: `weird_${token}`, key } },
            { sleep: 100 },
            { echo: true },
          ],
        },
        { steps: [{ exit: 9 }] },
      ],
    },
    { ANTHROPIC_API_KEY: key, OTHER_TOKEN: token },
  );
  try {
    await session.start();
    assert.equal(session.status.kind, 'ready');
    await session.prompt(`please echo ${key}`);
    // The crash takes the `exit` stderr line (no trailing newline) into the log and the error entry.
    await session.prompt('crash now');
    await waitFor(() => session.status.kind === 'stopped', 5000, 'the crash');
    // The last stderr line (no newline) is logged when the stream ends; the leak checks below run after it.
    await waitFor(() => log.of('stderr').some((l) => l.includes('dying with key')), 5000, 'the last stderr line');

    const all = log.toString();
    // The test really exercised the paths: the redacted forms are there.
    assert.ok(
      log.of('stderr').some((l) => l.includes('config: ANTHROPIC_API_KEY=***')),
      log.of('stderr').join('\n'),
    );
    assert.ok(
      log.of('stderr').some((l) => l.includes('dying with key ***')),
      'the last stderr line (no newline) is logged, redacted',
    );
    assert.ok(log.of('in').some((l) => l.includes('Your key is ***')));
    assert.ok(
      log.of('out').some((l) => l.includes('key=***')),
      'terminal output sent back to the agent is redacted',
    );
    assert.ok(log.of('warn').some((w) => w.includes('not json, but has ***')));
    for (const [name, secret, prefix] of [
      ['ANTHROPIC_API_KEY', key, 'sk-ant-api03-'.length],
      ['OTHER_TOKEN', token, 'tok_'.length],
    ] as const) {
      assert.deepEqual(
        log.lines.filter((l) => l.text.includes(secret)).map((l) => `${l.level} ${l.text}`),
        [],
        `${name} appears whole in the log`,
      );
      assert.deepEqual(leaks(all, secret, prefix), [], `pieces of ${name} appear in the log`);
    }
    // The panel shows the agent's own words (its content, not a log)...
    const entries = session.snapshotParts().entries;
    assert.ok(entries.some((e) => e.kind === 'agent' && e.text.includes(key)));
    // ...but what Tandem itself writes there (the crash report with the stderr tail) is redacted.
    const error = entries.find((e) => e.kind === 'error');
    assert.ok(error && error.kind === 'error');
    assert.ok(!`${error.message}\n${error.detail ?? ''}`.includes(key), 'the stderr tail in the error entry leaks the key');
    assert.match(error.detail ?? '', /dying with key \*\*\*/);
  } finally {
    session.dispose();
  }
});

test('a secret cut by the length limits of warnings and stderr lines does not leak in pieces', { timeout: 60_000 }, async () => {
  const key = fresh('sk-');
  // Put the secret across the 200-character quote of a rejected line, and across the 4000-character
  // cut of an overlong stderr line: truncating before redacting would leave half of it readable.
  const badLine = `${'#'.repeat(180)}${key}${'#'.repeat(50)}`;
  const stderrLine = `${'e'.repeat(3980)}${key}`;
  const { session, log } = makeSession({ initialize: { stderr: stderrLine }, turns: [{ steps: [{ raw: badLine }, say('done')] }] }, { ANTHROPIC_API_KEY: key });
  try {
    await session.start();
    await session.prompt('go');
    assert.ok(
      log.of('warn').some((w) => w.includes('#'.repeat(180))),
      'the rejected line was quoted',
    );
    assert.ok(
      log.of('stderr').some((l) => l.includes('e'.repeat(3000))),
      'the long stderr line was logged',
    );
    assert.deepEqual(
      log.lines.filter((l) => leaks(l.text, key, 3, 8).length > 0).map((l) => `${l.level} …${l.text.slice(-80)}`),
      [],
      'pieces of the secret appear in the log',
    );
  } finally {
    session.dispose();
  }
});

test('a secret with characters JSON escapes (quotes, backslashes) is redacted in its escaped wire form too', { timeout: 60_000 }, async () => {
  // Passwords are env values as well; on the wire they appear JSON-escaped.
  const secret = `pa"ss\\word-${randomBytes(8).toString('hex')}`;
  const { session, log } = makeSession({ turns: [{ steps: [say(`the password is ${secret}`)] }] }, { DB_PASSWORD: secret });
  try {
    await session.start();
    await session.prompt('go');
    const all = log.toString();
    const escaped = JSON.stringify(secret).slice(1, -1);
    assert.ok(
      log.of('in').some((l) => l.includes('the password is')),
      'the message was logged',
    );
    assert.ok(!all.includes(secret), 'raw form leaks');
    assert.ok(!all.includes(escaped), `JSON-escaped form leaks: ${escaped}`);
  } finally {
    session.dispose();
  }
});

test('env values that are JSON literals or numbers are not masked: the logged lines stay JSON', async () => {
  const { createRedactor } = await import('../../src/acp/protocolLog');
  const redact = createRedactor(['true', '8080', 'null', 'sk-real-secret']);
  const line = '{"jsonrpc":"2.0","id":8080,"result":{"terminal":true,"x":null,"key":"sk-real-secret"}}';
  const out = redact(line);
  assert.deepEqual(JSON.parse(out), { jsonrpc: '2.0', id: 8080, result: { terminal: true, x: null, key: '***' } });
});
