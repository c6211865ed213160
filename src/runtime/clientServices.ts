import type { AgentLaunchConfig } from '../acp/agentProcess';
import { FsHandler } from '../client/fsHandler';
import { TerminalManager } from '../client/terminalManager';
import { assertNever } from '../protocol/guards';
import type { ClientServices, ClientServicesDeps } from './clientServicePorts';
import { replaySandbox } from './replaySandbox';

/** The services of one runtime, chosen once from its launch config. */
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
