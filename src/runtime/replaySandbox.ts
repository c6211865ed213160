import { RequestError } from '@agentclientprotocol/sdk';
import { FsHandler } from '../client/fsHandler';
import { RecordedTerminals } from '../client/recordedTerminals';
import { SANDBOX_READ_REFUSED } from '../protocol/replayWire';
import type { ClientServices, ClientServicesDeps } from './clientServicePorts';

/**
 * The client side of a replay (`AgentLaunchConfig.sandbox: 'replay'`, set only by `Tandem: Replay
 * Transcript…`). A transcript is data that may come from anyone, so whatever its lines say — ids,
 * shapes, order — the agent playing it gets a sandbox, by construction rather than by filtering
 * known cases:
 * - terminals are RecordedTerminals: the recorded output is shown, no process can be started;
 * - every file write is proposed to the user as a diff (SessionEndpoint.proposeWrite: always
 *   asked, whatever `tandem.reviewEdits` says, no saved allow rule answering for the user) and
 *   written only once accepted, through the session's own path policy; rejected, the agent gets
 *   an error and the replay goes on;
 * - file reads are refused: the answer would only go back into a conversation that can be
 *   exported, and the replay needs nothing from the user's files (its answers are recorded).
 * Permission prompts and questions are the normal ones (they ask the user anyway). Which session
 * a request may touch is decided before this, by SessionRouter: unknown sessions are refused.
 */
export function replaySandbox(deps: ClientServicesDeps): ClientServices {
  return {
    files: (endpoint) => {
      const writes = new FsHandler({
        files: deps.files,
        policy: endpoint.scope?.policy ?? deps.policy,
        onTouched: (path, line) => endpoint.touched(path, line),
        beforeWrite: (path, before, after) => endpoint.proposeWrite(path, before, after),
      });
      return {
        readTextFile: async (p) => {
          throw new RequestError(
            -32603,
            `A replay is not served file reads: ${String(p.path)} was not read (the recording's answers stand in for your files).`,
            {
              path: p.path,
              reason: SANDBOX_READ_REFUSED,
            },
          );
        },
        writeTextFile: (p) => writes.writeTextFile(p),
      };
    },
    terminals: () => new RecordedTerminals(),
  };
}
