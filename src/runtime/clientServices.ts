import type { AgentLaunchConfig } from '../acp/agentProcess';
import { FsHandler, type FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import { TerminalManager, type TerminalService } from '../client/terminalManager';
import { assertNever } from '../protocol/guards';
import type { SessionEndpoint } from './sessionPort';
import { replaySandbox } from './replaySandbox';

/** What serves one session's `fs/*` requests. */
export type SessionFiles = Pick<FsHandler, 'readTextFile' | 'writeTextFile'>;

/**
 * What a runtime serves its sessions once SessionRouter has found the session a request names:
 * files and terminals. Chosen once per runtime from the launch config, so a sandboxed agent never
 * gets the live services — there is no TerminalManager (nothing that spawns) in its runtime at all.
 */
export interface ClientServices {
  files(endpoint: SessionEndpoint): SessionFiles;
  /** The terminals of one start of the agent. */
  terminals(): TerminalService;
}

export interface ClientServicesDeps {
  files: FileAccess;
  /** The runtime's roots, for sessions without a scope of their own. */
  policy: PathPolicy;
}

export function clientServices(agent: AgentLaunchConfig, deps: ClientServicesDeps): ClientServices {
  const sandbox = agent.sandbox;
  switch (sandbox) {
    case undefined:
      return liveServices(agent, deps);
    case 'replay':
      return replaySandbox(deps);
    default:
      return assertNever(sandbox);
  }
}

/** An agent's own requests: files through the session's policy and review, commands really run. */
function liveServices(agent: AgentLaunchConfig, deps: ClientServicesDeps): ClientServices {
  return {
    files: (endpoint) =>
      new FsHandler({
        files: deps.files,
        policy: endpoint.scope?.policy ?? deps.policy,
        onTouched: (path, line) => endpoint.touched(path, line),
        beforeWrite: (path, before, after) => endpoint.beforeWrite(path, before, after),
      }),
    terminals: () => new TerminalManager({ defaultCwd: agent.cwd, baseEnv: process.env, policy: deps.policy }),
  };
}
