/**
 * The header: agent picker, status, mode picker (when the agent has modes), "N waiting for you",
 * History; below it a notice for the
 * states where the panel cannot chat yet (no agent, untrusted workspace, stopped agent).
 */
import * as l10n from '@vscode/l10n';
import type { AgentChoice, ConversationStatus } from '../../src/protocol/messages';
import { assertNever } from '../../src/protocol/guards';
import { AgentLocation } from './agentLocation';
import { button, h, icon, withNodes } from '../core/dom';
import { readableSelectWidth } from '../core/readableWidth';
import { AccountRow } from './accountRow';
import { QuotaMeter } from './quotaMeter';
import { SessionControls } from './sessionControls';
import { SelfApprovalBadge } from './selfApprovalBadge';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

export function statusText(status: ConversationStatus): string {
  switch (status.kind) {
    case 'no_agent':
      return l10n.t('No agent configured');
    case 'untrusted':
      return l10n.t('Workspace not trusted');
    case 'idle':
      return l10n.t('{0} (not connected)', status.agentName);
    case 'starting':
      return status.detail ? l10n.t('{0}: {1}', status.agentName, status.detail) : l10n.t('Starting {0}…', status.agentName);
    case 'ready':
      return l10n.t('{0} ready', status.agentName);
    case 'running':
      return l10n.t('{0} working…', status.agentName);
    case 'cancelling':
      return l10n.t('Stopping {0}…', status.agentName);
    case 'stopped':
      return l10n.t('{0} stopped', status.agentName);
    default:
      return assertNever(status);
  }
}

/** The status without the agent's name, for a narrow header (the agent picker next to it names the agent). */
export function shortStatusText(status: ConversationStatus): string {
  switch (status.kind) {
    case 'no_agent':
    case 'untrusted':
      return statusText(status);
    case 'idle':
      return l10n.t('not connected');
    case 'starting':
      return status.detail ?? l10n.t('starting…');
    case 'ready':
      return l10n.t('ready');
    case 'running':
      return l10n.t('working…');
    case 'cancelling':
      return l10n.t('stopping…');
    case 'stopped':
      return l10n.t('stopped');
    default:
      return assertNever(status);
  }
}

/** An agent's name in the picker, with where it comes from when that matters (a workspace's entry may point elsewhere). */
function agentLabel(a: AgentChoice): string {
  if (a.builtIn) return l10n.t('{0} (built in)', a.name);
  return a.fromWorkspace ? l10n.t('{0} (workspace)', a.name) : a.name;
}

/** How long after the last streamed change the busy bar comes back. */
const FLOW_QUIET_MS = 400;

export class Header {
  readonly element: HTMLElement;
  /** When the thread last changed while the agent was busy (see `noteFlow`). */
  private lastFlow = 0;
  private flowTimer: ReturnType<typeof setTimeout> | undefined;
  readonly notice: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly modeSelect: HTMLSelectElement;
  private readonly status: HTMLElement;
  /** The branch of the shown conversation's worktree (absent: it works in the workspace folder). */
  private readonly branch: HTMLElement;
  private readonly waiting: HTMLButtonElement;
  private readonly waitingCount: HTMLElement;
  /** Session settings (pickers, options menu) and the usage meter. */
  readonly controls: SessionControls;
  /** The account's limits (quota_update), beside the context meter. */
  readonly quota: QuotaMeter;
  /** Who the agent is signed in as, with Sign out. */
  readonly account: AccountRow;
  /** Where the agent runs, and its connection. */
  private readonly location: AgentLocation;
  /** "Approves its own actions": the current mode lets the agent approve itself (no prompts appear). */
  readonly approval: SelfApprovalBadge;
  /** How much of the status a narrow row has room for (SessionControls' fitting decides). */
  private statusLevel: 'full' | 'short' | 'hidden' = 'full';

  constructor(
    private readonly store: Store,
    private readonly host: Host,
    private readonly root: HTMLElement,
  ) {
    this.select = h('select', { class: 'agent-picker', 'aria-label': l10n.t('Agent') });
    this.select.addEventListener('change', () => host.post({ type: 'selectAgent', name: this.select.value }));
    this.modeSelect = h('select', { class: 'mode-picker', 'aria-label': l10n.t('Mode') });
    // The picker shows the agent's current mode only once the host reports it (it reverts on a refusal).
    this.modeSelect.addEventListener('change', () => host.post({ type: 'setMode', modeId: this.modeSelect.value }));
    this.modeSelect.hidden = true;
    // Read on demand, not live: the announcer says the changes worth hearing (ready, stopped, a turn's end).
    this.status = h('span', { class: 'status-text', role: 'status', 'aria-live': 'off' });
    this.branch = h('span', { class: 'header-branch' });
    this.branch.hidden = true;
    this.waiting = button('', () => this.focusFirstPrompt(), {
      cls: 'waiting-indicator',
      icon: 'bell-dot',
      title: l10n.t('Jump to the first permission request'),
    });
    // vscode-badge gives the count the same look as VS Code's own counters.
    this.waitingCount = h('vscode-badge' as 'span', { variant: 'counter' });
    // The label's own sentence around the count, so what it shows is what its name says (WCAG 2.5.3).
    this.waiting.append(...withNodes(l10n.t('{0} waiting for you'), this.waitingCount));
    this.waiting.hidden = true;
    const history = button('', () => host.post({ type: 'showHistory' }), {
      cls: 'icon-button',
      icon: 'history',
      label: l10n.t('History'),
      title: l10n.t('Conversation history'),
    });
    this.controls = new SessionControls(store, host);
    this.quota = new QuotaMeter(() => this.controls.renderOptions());
    this.account = new AccountRow(store, host, () => this.controls.renderOptions());
    this.location = new AgentLocation(store);
    this.approval = new SelfApprovalBadge(
      store,
      () => this.controls.focusModePicker(),
      () => this.controls.renderOptions(),
    );
    this.element = h(
      'header',
      { class: 'header' },
      this.select,
      this.location.element,
      this.status,
      this.branch,
      this.approval.element,
      this.controls.meter,
      this.quota.element,
      h('span', { class: 'spacer' }),
      this.account.element,
      this.controls.pickers,
      this.waiting,
      history,
    );
    this.controls.adoptModePicker(this.modeSelect, l10n.t('Mode'));
    this.controls.fitInto(this.element, {
      setStatus: (level) => {
        this.statusLevel = level;
        this.keepAgentReadable();
        this.renderStatusText();
      },
      statusCut: () => this.statusLevel !== 'hidden' && !this.status.hidden && this.status.scrollWidth > this.status.clientWidth + 1,
    });
    this.notice = h('div', { class: 'notice', role: 'region', 'aria-label': l10n.t('Agent status') });
    this.notice.hidden = true;
  }

  renderAgents(): void {
    const { agents, tabs, conversationId } = this.store;
    // The picker shows the shown conversation's agent; before tabs are known, the host's choice.
    const selectedAgent = tabs.find((t) => t.id === conversationId)?.agentName || this.store.selectedAgent;
    this.select.replaceChildren(...agents.map((a) => h('option', { value: a.name, title: a.commandLine, selected: a.name === selectedAgent }, agentLabel(a))));
    if (selectedAgent !== undefined) this.select.value = selectedAgent;
    this.select.hidden = agents.length === 0;
    this.keepAgentReadable();
    this.location.render();
    this.renderNotice();
    this.controls.renderOptions();
  }

  renderModes(): void {
    const modes = this.store.modes;
    this.modeSelect.hidden = modes === undefined;
    if (modes === undefined) {
      this.modeSelect.replaceChildren();
      return this.controls.renderOptions();
    }
    const unlisted = modes.available.some((m) => m.id === modes.currentModeId) ? [] : [h('option', { value: modes.currentModeId }, modes.currentModeId)];
    this.modeSelect.replaceChildren(
      ...unlisted,
      ...modes.available.map((m) => h('option', { value: m.id, title: m.description, selected: m.id === modes.currentModeId }, m.name)),
    );
    this.modeSelect.value = modes.currentModeId;
    const current = modes.available.find((m) => m.id === modes.currentModeId);
    this.modeSelect.title = current?.description
      ? l10n.t('Mode: {0} — {1}', current.name, current.description)
      : l10n.t('Mode: {0}', current?.name ?? modes.currentModeId);
    this.controls.renderOptions();
  }

  /** The shown conversation's worktree branch, next to its status. */
  renderWorktree(): void {
    const worktree = this.store.worktrees.worktree;
    this.branch.hidden = worktree === undefined;
    if (!worktree) return;
    this.branch.replaceChildren(icon('git-branch'), h('span', {}, worktree.branch));
    this.branch.title = l10n.t('Works in the worktree {0} (branch {1})', worktree.path, worktree.branch);
    this.branch.setAttribute('aria-label', l10n.t('Worktree branch {0}', worktree.branch));
  }

  /** The agent picker never shrinks below its agent's name (at most, the "(built in)" after it is cut). */
  private keepAgentReadable(): void {
    const name = this.select.value;
    if (this.select.hidden || !name || !this.select.isConnected) return;
    this.select.style.minWidth = `${readableSelectWidth(this.select, name)}px`;
  }

  private renderStatusText(): void {
    const status = this.store.status;
    const full = this.store.hasSnapshot ? statusText(status) : l10n.t('Connecting…');
    if (this.statusLevel === 'full' || !this.store.hasSnapshot) this.status.textContent = full;
    else {
      // Short on screen, whole for assistive technology (and for whatever reads the live region):
      // the agent picker beside it names the agent only for those who see it.
      const shown = shortStatusText(status);
      this.status.replaceChildren(h('span', { 'aria-hidden': 'true' }, shown), h('span', { class: 'visually-hidden' }, full));
    }
    // Out of sight, still read: the status is the header's live state for assistive technology.
    this.status.classList.toggle('visually-hidden', this.statusLevel === 'hidden');
    this.status.title = full;
  }

  renderStatus(): void {
    const status = this.store.status;
    const before = this.status.textContent;
    this.renderStatusText();
    // The short text of another state may not fit where the last one did.
    if (before !== this.status.textContent) this.controls.renderOptions();
    this.root.setAttribute('data-status', status.kind);
    // Long work shows progress: an indeterminate bar under the header (CSS, keyed on the state).
    const busy = status.kind === 'starting' || status.kind === 'running' || status.kind === 'cancelling';
    this.element.classList.toggle('busy', busy);
    this.element.setAttribute('aria-busy', String(busy));
    this.location.render();
    this.renderNotice();
  }

  /**
   * The thread changed. While the agent's output streams, the text itself shows the work going on,
   * so the busy bar steps aside (`flowing`) until the output pauses: an animation the compositor
   * cannot take over (software rendering) costs style, paint and a new frame every frame.
   */
  noteFlow(): void {
    this.lastFlow = performance.now();
    if (this.flowTimer !== undefined) return;
    this.element.classList.add('flowing');
    const check = (): void => {
      const quiet = performance.now() - this.lastFlow;
      if (quiet < FLOW_QUIET_MS) {
        this.flowTimer = setTimeout(check, FLOW_QUIET_MS - quiet);
        return;
      }
      this.flowTimer = undefined;
      this.element.classList.remove('flowing');
    };
    this.flowTimer = setTimeout(check, FLOW_QUIET_MS);
  }

  /** Count of prompts waiting for an answer, shown as a button that jumps to the first one. */
  renderWaiting(): void {
    const count = this.root.querySelectorAll('[role="group"][data-permission-state="pending"]').length;
    const shownBefore = !this.waiting.hidden;
    this.waiting.hidden = count === 0;
    // The indicator takes room in the one-row header: the pickers fit again.
    if (shownBefore !== count > 0) this.controls.renderOptions();
    this.waiting.setAttribute('aria-label', l10n.t('{0} waiting for you', count));
    this.waitingCount.textContent = String(count);
  }

  /** Lands on a waiting prompt (the first, or the one of `requestId`): scrolled to, focus on its first one-time option. */
  focusFirstPrompt(requestId?: string): boolean {
    const pending = '[role="group"][data-permission-state="pending"]';
    const group =
      (requestId === undefined ? null : this.root.querySelector<HTMLElement>(`${pending}[data-request-id="${CSS.escape(requestId)}"]`)) ??
      this.root.querySelector<HTMLElement>(pending);
    const target = group?.querySelector<HTMLElement>('button[data-option-kind$="_once"]') ?? group?.querySelector<HTMLElement>('button');
    if (!target) return false;
    target.scrollIntoView({ block: 'center' });
    target.focus();
    return true;
  }

  private renderNotice(): void {
    const status = this.store.status;
    const parts: Array<HTMLElement | string> = [];
    switch (status.kind) {
      case 'no_agent':
        parts.push(
          h(
            'p',
            {},
            icon('info'),
            ' ',
            ...withNodes(
              l10n.t('No agent is configured. Add one of these to {0} in your settings, or add your own command there:'),
              h('code', {}, 'tandem.agents'),
            ),
          ),
        );
        parts.push(
          h(
            'ul',
            { class: 'presets' },
            ...this.store.presets.map((p) =>
              h(
                'li',
                { class: 'preset' },
                h('span', { class: 'preset-name' }, p.name),
                h('code', { class: 'preset-command' }, p.commandLine),
                button(l10n.t('Add'), () => this.host.post({ type: 'addPreset', presetId: p.id }), {
                  cls: 'secondary small',
                  label: l10n.t('Add {0}', p.name),
                }),
              ),
            ),
          ),
        );
        break;
      case 'untrusted':
        parts.push(
          h(
            'p',
            {},
            icon('shield'),
            ` ${l10n.t('This workspace is not trusted, so Tandem does not start agents here (an agent can run commands and edit files).')}`,
          ),
          h('p', {}, l10n.t('To trust it, run "Workspaces: Manage Workspace Trust" from the Command Palette.')),
        );
        break;
      case 'stopped':
        parts.push(
          h('p', {}, icon('debug-stop'), ` ${l10n.t('{0} stopped: {1}', status.agentName, status.reason)}`),
          button(l10n.t('Restart'), () => this.host.post({ type: 'restart' }), { cls: 'primary', icon: 'debug-restart' }),
        );
        break;
      case 'idle':
      case 'starting':
      case 'ready':
      case 'running':
      case 'cancelling':
        break;
      default:
        assertNever(status);
    }
    this.notice.replaceChildren(...parts);
    this.notice.hidden = parts.length === 0;
  }
}
