import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { replayTerminalMeta } from '../protocol/replayWire';
import { Emitter, type IDisposable } from '../util/disposable';
import { OutputBuffer } from './outputBuffer';
import type { TerminalEvent } from './terminalEvents';
import { DEFAULT_OUTPUT_BYTE_LIMIT, type TerminalInfo, type TerminalService } from './terminalManager';

interface Shown {
  id: string;
  sessionId: string;
  command: string;
  buffer: OutputBuffer;
  exitCode: number | null;
}

/** How a recorded command appears on its card: what the recording ran, marked as not run now. */
function shownCommand(p: acp.CreateTerminalRequest): string {
  const args = Array.isArray(p.args) ? p.args.filter((a): a is string => typeof a === 'string') : [];
  const line = [String(p.command), ...args].map((part) => (/^[\w./:=@%+-]+$/.test(part) ? part : JSON.stringify(part))).join(' ');
  return `${line}  (replayed: not run)`;
}

/**
 * `terminal/*` for a replay: a terminal that shows the recorded output (`_meta.tandem.replay`,
 * see src/protocol/replayWire.ts) and has already exited with the recorded code. Nothing is
 * spawned — this class cannot run a command; the command the request names is only displayed.
 * The panel gets the same events as for a real terminal (created, output, exit), and the agent
 * can read, wait for, kill and release it like one.
 */
export class RecordedTerminals implements TerminalService {
  private readonly terminals = new Map<string, Shown>();
  private readonly emitter = new Emitter<TerminalEvent>();
  private nextId = 1;

  onDidChange(listener: (e: TerminalEvent) => void): IDisposable {
    return this.emitter.event(listener);
  }

  async create(p: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    const recorded = replayTerminalMeta(p);
    if (!recorded) {
      throw new RequestError(-32602, 'A replay runs no commands: this terminal/create carries no recorded output (_meta.tandem.replay); nothing was run.');
    }
    const limit = p.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new RequestError(-32602, `Invalid params: outputByteLimit must be an integer ≥ 0, got ${limit}`);
    }
    const id = `term-${this.nextId++}`;
    const buffer = new OutputBuffer(limit);
    buffer.append(Buffer.from(recorded.output, 'utf8'));
    buffer.end();
    const term: Shown = { id, sessionId: p.sessionId, command: shownCommand(p), buffer, exitCode: recorded.exitCode };
    this.terminals.set(id, term);
    this.emitter.fire({ kind: 'created', terminalId: id, command: term.command });
    if (recorded.output !== '') this.emitter.fire({ kind: 'output', terminalId: id, text: recorded.output, truncated: false });
    this.emitter.fire({ kind: 'exit', terminalId: id, exitCode: term.exitCode, signal: null });
    return { terminalId: id };
  }

  async output(p: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse> {
    const term = this.lookup(p.sessionId, p.terminalId);
    const { text, truncated } = term.buffer.read(true);
    return { output: text, truncated, exitStatus: { exitCode: term.exitCode, signal: null } };
  }

  async waitForExit(p: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    return { exitCode: this.lookup(p.sessionId, p.terminalId).exitCode, signal: null };
  }

  /** Already exited: nothing to stop. */
  async kill(p: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse> {
    this.lookup(p.sessionId, p.terminalId);
    return {};
  }

  async release(p: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse> {
    this.terminals.delete(this.lookup(p.sessionId, p.terminalId).id);
    return {};
  }

  get(terminalId: string): TerminalInfo | undefined {
    const term = this.terminals.get(terminalId);
    if (!term) return undefined;
    const { text, truncated } = term.buffer.read(true);
    const exit = { exitCode: term.exitCode, signal: null };
    const held = term.buffer.bufferedBytes;
    return {
      terminalId: term.id,
      sessionId: term.sessionId,
      command: term.command,
      cwd: '',
      pid: undefined,
      exit,
      output: text,
      truncated,
      bufferedBytes: held,
      peakBufferedBytes: term.buffer.peakBufferedBytes,
    };
  }

  async disposeAll(): Promise<void> {
    this.terminals.clear();
  }

  dispose(): void {
    this.terminals.clear();
    this.emitter.dispose();
  }

  private lookup(sessionId: string, terminalId: string): Shown {
    const term = this.terminals.get(terminalId);
    if (!term || term.sessionId !== sessionId) throw new RequestError(-32602, `Unknown terminal id: ${terminalId}`, { terminalId });
    return term;
  }
}
