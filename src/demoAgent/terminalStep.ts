/**
 * The terminal part of the tour: runs two harmless commands (`echo`, then `ls`) in terminals the
 * client creates (`terminal/create`), embeds them in execute tool calls so the output shows live in
 * the card, waits for the exit, and releases them. Without the client's terminal capability the
 * cards still appear and say why nothing ran.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { Cancelled, errorText, textContent } from './turn';
import type { Turn } from './turn';

interface DemoCommand {
  command: string;
  args: string[];
  purpose: string;
}

const COMMANDS: DemoCommand[] = [
  { command: 'echo', args: ['Hello from the Tandem demo agent!'], purpose: 'Print a greeting' },
  { command: 'ls', args: ['-la'], purpose: 'List the workspace' },
];

/** Resolves after `ms` at most; used so a stuck client cannot hold a cancelled turn open. */
function atMost<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref())]);
}

async function runCommand(turn: Turn, cmd: DemoCommand): Promise<void> {
  const line = [cmd.command, ...cmd.args].join(' ');
  const toolCallId = await turn.startTool({
    toolCallId: turn.newToolId('exec'),
    title: 'Run a command',
    kind: 'execute',
    status: 'pending',
    rawInput: { command: cmd.command, args: cmd.args, cwd: turn.cwd },
  });
  await turn.sleep(250);
  await turn.updateTool(toolCallId, { title: `\`${line}\` — ${cmd.purpose}` });
  if (!turn.caps.terminal) {
    await turn.finishTool(toolCallId, 'completed', {
      content: [textContent(`This client does not offer terminals (\`terminal\` capability), so \`${line}\` was not run.`)],
    });
    return;
  }
  let handle: acp.TerminalHandle;
  try {
    handle = await turn.race(
      turn.client.createTerminal(
        { sessionId: turn.session.id, command: cmd.command, args: cmd.args, cwd: turn.cwd, outputByteLimit: 64 * 1024 },
        { cancellationSignal: turn.cancellationSignal },
      ),
    );
  } catch (err) {
    // E.g. the command does not exist on this system: fail this card, go on with the tour.
    turn.check();
    await turn.finishTool(toolCallId, 'failed', { content: [textContent(`Could not start \`${line}\`: ${errorText(err)}`)] });
    return;
  }
  const terminal: acp.ToolCallContent = { type: 'terminal', terminalId: handle.id };
  try {
    // Embedded before anything else so the card streams the output while it runs.
    await turn.updateTool(toolCallId, { status: 'in_progress', content: [terminal] });
    const exit = await turn.race(handle.waitForExit());
    const out = await turn.race(handle.currentOutput());
    await turn.sleep(150);
    await turn.finishTool(toolCallId, exit.exitCode === 0 ? 'completed' : 'failed', {
      content: [terminal],
      rawOutput: { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null, output: out.output.slice(-2000), truncated: out.truncated },
    });
  } catch (err) {
    if (err instanceof Cancelled) await atMost(handle.kill(), 1000).catch(() => undefined);
    throw err;
  } finally {
    // Release kills the command if it still runs; the card keeps showing the output it captured.
    await atMost(handle.release(), 1000).catch(() => undefined);
  }
}

export async function terminalStep(turn: Turn): Promise<void> {
  for (const cmd of COMMANDS) await runCommand(turn, cmd);
}
