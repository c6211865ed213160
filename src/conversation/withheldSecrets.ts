import * as l10n from '@vscode/l10n';
import type { AgentLaunchConfig } from '../acp/agentProcess';

/**
 * What the sign-in card says first when the agent asks for a key or token it has one stored for,
 * but entered for somewhere else (AgentLaunchConfig.withheld): the value stays with where it was
 * entered for, and the user decides whether this destination gets one.
 */
export function withheldNote(agentName: string, withheld: NonNullable<AgentLaunchConfig['withheld']>): string {
  return withheld.enteredFor
    ? l10n.t(
        'The key stored for {0} was entered for {1}, and the agent now points at {2}: it was not sent. Enter it again to use it there.',
        agentName,
        withheld.enteredFor,
        withheld.destination,
      )
    : l10n.t(
        'The key stored for {0} was not sent to {1}: this agent is defined by the workspace’s settings, and the key was stored before Tandem kept where each key was entered for. Enter it again to use it there.',
        agentName,
        withheld.destination,
      );
}

/** The card's message, led by {@link withheldNote} when a stored value was withheld. */
export function signInMessage(agentName: string, message: string, launch: Pick<AgentLaunchConfig, 'withheld'> | undefined): string {
  return launch?.withheld ? `${withheldNote(agentName, launch.withheld)} ${message}` : message;
}
