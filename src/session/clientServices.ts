import type * as acp from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../acp/agentConnection';
import type { ProtocolLog } from '../acp/protocolLog';
import { FsHandler, type FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import { PermissionBroker } from '../client/permissionBroker';
import { TerminalManager } from '../client/terminalManager';
import type { HostMessage, PermissionView } from '../protocol/messages';
import type { SessionThread } from './sessionThread';

export interface ClientServicesDeps {
  cwd: string;
  files: FileAccess;
  policy: PathPolicy;
  log: ProtocolLog;
  /** The thread the prompts and terminals show up in. */
  thread: SessionThread;
  /** The session the agent's requests must name; others are answered cancelled. */
  sessionId(): string | undefined;
  follow(path: string, line: number | undefined): void;
  emit(messages: HostMessage[]): void;
  onPermissionRequested?(info: { requestId: string; title: string; options: acp.PermissionOption[] }): void;
}

/**
 * What Tandem serves to one agent process: files through the editor, terminals, and permission
 * prompts whose reply handles stay here while the card shows the question. Created per process so
 * a restart starts with no pending prompt and no terminal of the old process.
 */
export class ClientServices {
  private readonly broker: PermissionBroker;
  private readonly terminalManager: TerminalManager;
  private readonly fs: FsHandler;

  constructor(private readonly deps: ClientServicesDeps) {
    this.broker = new PermissionBroker({
      // Requests often carry only the toolCallId: the card we already have knows the kind.
      kindOf: (params) => params.toolCall.kind ?? deps.thread.reducer.findToolCall(String(params.toolCall.toolCallId))?.toolKind,
    });
    this.terminalManager = new TerminalManager({ defaultCwd: deps.cwd, baseEnv: process.env, policy: deps.policy });
    this.terminalManager.onDidChange((event) => deps.thread.applyTerminalEvent(event));
    this.fs = new FsHandler({ files: deps.files, policy: deps.policy, onTouched: (path, line) => deps.follow(path, line) });
  }

  handlers(): ClientHandlers {
    const terminals = this.terminalManager;
    return {
      requestPermission: (params, signal) => this.requestPermission(params, signal),
      readTextFile: (p) => this.fs.readTextFile(p),
      writeTextFile: (p) => this.fs.writeTextFile(p),
      createTerminal: (p) => terminals.create(p),
      terminalOutput: (p) => terminals.output(p),
      waitForTerminalExit: (p) => terminals.waitForExit(p),
      killTerminal: (p) => terminals.kill(p),
      releaseTerminal: (p) => terminals.release(p),
    };
  }

  respondPermission(requestId: string, optionId: string): boolean {
    return this.broker.respond(requestId, optionId);
  }

  /** Answers every pending prompt `cancelled` (spec MUST on session/cancel); the cards follow. */
  cancelPermissions(): void {
    this.broker.cancelAll();
  }

  async dispose(): Promise<void> {
    this.broker.dispose();
    await this.terminalManager.disposeAll();
  }

  private async requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const { reducer } = this.deps.thread;
    if (params.sessionId !== this.deps.sessionId()) return { outcome: { outcome: 'cancelled' } };
    if (!Array.isArray(params.options) || params.options.length === 0) {
      // Nothing the user could click: answering cancelled beats leaving the agent blocked forever.
      this.deps.log.warn('A permission request came without options; answered cancelled.');
      return { outcome: { outcome: 'cancelled' } };
    }
    const { requestId, response } = this.broker.request(params, signal);
    this.deps.emit(reducer.attachPermission(params.toolCall, requestId, params.options));
    this.deps.onPermissionRequested?.({
      requestId,
      title: reducer.findToolCall(String(params.toolCall.toolCallId))?.title ?? 'Tool call',
      options: params.options,
    });
    const result = await response;
    const state: PermissionView['state'] =
      result.outcome.outcome === 'selected' ? { kind: 'selected', optionId: result.outcome.optionId } : { kind: 'cancelled' };
    this.deps.emit(reducer.resolvePermission(requestId, state));
    return result;
  }
}
