/**
 * A minimal SDK client wired to a real scripted agent process, for tests of single client-side
 * handlers: the test registers the handlers it is about, the helper does the rest (spawn, text the
 * agent says, clean-up) and opens a session with the given capabilities.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { RequestError } from '@agentclientprotocol/sdk';
import * as acp from '@agentclientprotocol/sdk';
import assert from 'node:assert/strict';
import { ensureScriptedAgentBuilt, prepareScripted } from './scriptedAgentHarness';

export interface BareClient {
  conn: acp.ClientConnection;
  sessionId: string;
  /** Every text chunk the agent said, in order (the scripted agent reports client results this way). */
  said: string[];
  /** Sends a prompt; resolves when the turn ends. */
  prompt(text?: string): Promise<acp.PromptResponse>;
  /** Waits until the agent said `count` things (or a second passed). */
  saidAtLeast(count: number): Promise<string[]>;
}

export async function bareClient(
  t: { after: (fn: () => void) => void },
  steps: unknown[],
  register: (app: ReturnType<typeof acp.client>) => ReturnType<typeof acp.client>,
  opts: { capabilities?: acp.ClientCapabilities; cwd?: string } = {},
): Promise<BareClient> {
  const agentJs = await ensureScriptedAgentBuilt();
  const run = prepareScripted({ turns: [{ steps: steps as Array<Record<string, unknown>> }] });
  const child = spawn(process.execPath, [agentJs, run.scriptPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const said: string[] = [];
  const app = register(acp.client({ name: 'bare-test-client' })).onNotification(acp.methods.client.session.update, ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') said.push(params.update.content.text);
  });
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  t.after(() => {
    conn.close();
    child.kill('SIGKILL');
    fs.rmSync(run.dir, { recursive: true, force: true });
  });
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: opts.capabilities ?? {} });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: opts.cwd ?? run.dir, mcpServers: [] });
  return {
    conn,
    sessionId,
    said,
    prompt: (text = 'go') => conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] }),
    saidAtLeast: async (count) => {
      for (let i = 0; i < 100 && said.length < count; i++) await new Promise((r) => setTimeout(r, 10));
      return said;
    },
  };
}

/** Awaits a promise that must reject with an ACP RequestError, and returns the error. */
export async function rejection(promise: Promise<unknown>): Promise<RequestError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof RequestError, `expected RequestError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}
