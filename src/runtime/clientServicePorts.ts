import type { FileAccess, FsHandler } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { TerminalService } from '../client/terminalManager';
import type { SessionEndpoint } from './sessionPort';

// The shape of a runtime's client services, apart from the choice of them (clientServices.ts), so
// replaySandbox.ts implements it without importing the file that chooses it.

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
