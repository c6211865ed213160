/**
 * The buttons of a child session's card (ACP subagents RFD), in its header. **Open**: the
 * subagent's history in its own read-only editor tab. **Stop**: shown while the child works and
 * the agent granted `capabilities.cancel` for it; a click asks the host to send `session/cancel`
 * with the child's session id. The parent's turn goes on; the card shows the child's state as the
 * agent reports it. After a click Stop waits (disabled) until the state changes, so a second click
 * cannot send a second cancel.
 */
import * as l10n from '@vscode/l10n';
import type { ChildSessionView } from '../../src/protocol/messages';
import { button, h } from '../core/dom';
import type { ViewContext } from '../entries/viewContext';

const working = (child: ChildSessionView | undefined): child is ChildSessionView =>
  child !== undefined && child.cancel === true && (child.state === 'running' || child.state === 'requires_action');

export class SubagentControls {
  readonly element: HTMLSpanElement;
  private readonly open: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private child: ChildSessionView | undefined;
  /** The state the click was made in: the button waits until the agent reports another. */
  private stoppedIn: string | undefined;

  constructor(
    private readonly entryId: string,
    private readonly ctx: ViewContext,
  ) {
    this.open = button('', () => this.ctx.host.post({ type: 'openSubagent', entryId: this.entryId }), {
      cls: 'icon-button subagent-open',
      icon: 'go-to-file',
      title: l10n.t("Open the subagent's history in a tab"),
    });
    this.stopButton = button(l10n.t('Stop'), () => this.stop(), {
      cls: 'secondary subagent-stop',
      icon: 'debug-stop',
      title: l10n.t('Stop this subagent (the conversation goes on)'),
    });
    this.element = h('span', { class: 'subagent-controls' }, this.open, this.stopButton);
    this.element.hidden = true;
  }

  update(title: string, child: ChildSessionView | undefined): void {
    if (this.stoppedIn !== undefined && (child?.sessionId !== this.child?.sessionId || child?.state !== this.stoppedIn)) this.stoppedIn = undefined;
    this.child = child;
    this.element.hidden = child === undefined;
    this.open.setAttribute('aria-label', l10n.t('Open {0} in a tab', title));
    const shown = working(child);
    this.stopButton.hidden = !shown;
    this.stopButton.disabled = shown && this.stoppedIn !== undefined;
    this.stopButton.setAttribute('aria-label', this.stopButton.disabled ? l10n.t('Stopping {0}…', title) : l10n.t('Stop {0}', title));
  }

  private stop(): void {
    const child = this.child;
    if (!working(child) || this.stoppedIn !== undefined) return;
    this.stoppedIn = child.state;
    this.stopButton.disabled = true;
    this.ctx.host.post({ type: 'stopSubagent', sessionId: child.sessionId });
  }
}
