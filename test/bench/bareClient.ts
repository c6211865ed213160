/**
 * The baseline: a bare `@agentclientprotocol/sdk` client that discards every update. It runs the
 * same scripted agent process over stdio with the same script as the Tandem run.
 */
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { scriptedAgentJs } from './scriptedSession';
import { wallNow } from './stats';

/** Milliseconds from sending session/prompt to its response (all updates received and dropped). */
export async function bareClientPromptMs(scriptPath: string, cwd: string): Promise<number> {
  const child = spawn(process.execPath, [scriptedAgentJs, scriptPath], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    let updates = 0;
    const app = acp.client({ name: 'bare-bench' }).onNotification(acp.methods.client.session.update, () => {
      updates++;
    });
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const conn = app.connect(stream);
    await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    const start = wallNow();
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    const elapsed = wallNow() - start;
    if (updates === 0) throw new Error('the bare client received no updates');
    return elapsed;
  } finally {
    child.kill('SIGKILL');
  }
}
