import * as path from 'node:path';
import type { AgentEntry } from '../../agents/agentEntry';
import { shownCommandLine } from '../../util/secretMask';

/**
 * Where an agent entry sends what it is given: the origin of its address (a remote or hosted
 * entry), or its command line (a process; ssh's destination and remote command included). Stored
 * sign-in values are kept under it as well as under the agent's name (agentSecrets.ts), so a
 * same-named entry that points elsewhere — a workspace's `.vscode/settings.json` overriding the
 * user's `url` — never gets them. Contains no secret: credential arguments are masked, and an
 * address's path, user and query are not part of it. Shown to the user when a value is withheld.
 */
export function agentDestination(entry: AgentEntry): string {
  switch (entry.kind) {
    case 'command': {
      // A relative path names another program in each folder it is resolved from (as the resolver does).
      const command = /[\\/]/.test(entry.command) && !path.isAbsolute(entry.command) ? path.resolve(entry.command) : entry.command;
      return shownCommandLine(command, entry.args);
    }
    case 'hosted':
    case 'remote':
      return originOf(entry.url);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
