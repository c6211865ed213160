/**
 * The header's note of where the shown conversation's agent runs — this machine, or the host of a
 * remote endpoint or ssh tunnel — and how its connection is: connecting, connected, reconnecting
 * (with the attempt), not connected, disconnected. Read from the agent's choice (`host`) and the
 * conversation's status; the announcer says the changes worth hearing.
 */
import * as l10n from '@vscode/l10n';
import type { ConversationStatus } from '../../src/protocol/messages';
import { h, icon } from '../core/dom';
import type { Store } from '../store/store';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'idle' | 'disconnected';

/** The connection's state as the status tells it; undefined when no agent is involved. */
export function connectionState(status: ConversationStatus): ConnectionState | undefined {
  switch (status.kind) {
    case 'starting':
      return status.reconnecting ? 'reconnecting' : 'connecting';
    case 'ready':
    case 'running':
    case 'cancelling':
      return 'connected';
    case 'idle':
      return 'idle';
    case 'stopped':
      return 'disconnected';
    case 'no_agent':
    case 'untrusted':
      return undefined;
  }
}

function stateText(state: ConnectionState, status: ConversationStatus): string {
  switch (state) {
    case 'connecting':
      return l10n.t('connecting');
    case 'connected':
      return l10n.t('connected');
    case 'reconnecting': {
      const r = status.kind === 'starting' ? status.reconnecting : undefined;
      return r ? l10n.t('reconnecting, attempt {0} of {1}', r.attempt, r.attempts) : l10n.t('reconnecting');
    }
    case 'idle':
      return l10n.t('not connected');
    case 'disconnected':
      return l10n.t('disconnected');
  }
}

const ICONS: Record<ConnectionState, string> = {
  connecting: 'plug',
  connected: 'plug',
  reconnecting: 'sync',
  idle: 'debug-disconnect',
  disconnected: 'debug-disconnect',
};

export class AgentLocation {
  readonly element: HTMLElement;
  private readonly label: HTMLElement;
  private readonly glyph: HTMLElement;

  constructor(private readonly store: Store) {
    this.glyph = icon('plug');
    this.label = h('span', { class: 'agent-location-host' });
    this.element = h('span', { class: 'agent-location' }, this.glyph, this.label);
    this.element.hidden = true;
  }

  render(): void {
    const { status, agents, tabs, conversationId } = this.store;
    const state = this.store.hasSnapshot ? connectionState(status) : undefined;
    const agentName =
      tabs.find((t) => t.id === conversationId)?.agentName || (status.kind === 'no_agent' || status.kind === 'untrusted' ? '' : status.agentName);
    const choice = agents.find((a) => a.name === agentName);
    this.element.hidden = state === undefined || !choice;
    if (state === undefined || !choice) return;
    const host = choice.host;
    const where = host ? l10n.t('Runs on {0}', host) : l10n.t('Runs on this machine');
    const text = `${where} · ${stateText(state, status)}`;
    this.element.dataset.connection = state;
    this.element.dataset.remote = String(host !== undefined);
    this.element.title = text;
    this.element.setAttribute('aria-label', text);
    this.element.setAttribute('role', 'img');
    this.label.textContent = host ?? l10n.t('local');
    this.glyph.className = `codicon codicon-${host && state === 'connected' ? 'remote' : ICONS[state]}`;
  }
}
