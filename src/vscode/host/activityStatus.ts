/**
 * The status bar item `tandem.activity`: how many conversations are working and how many wait for
 * you (a permission prompt or a question in Tandem, or the agent's own "waiting on approval"), from
 * the tabs the manager announces. Hidden when none does either. A click shows the first one waiting
 * (else the first one working) in the panel, landing on its prompt.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { TabView } from '../../protocol/messages';
import { activityText, isWaiting, isWorking } from '../../conversation/activitySummary';
import { Disposable } from '../../util/disposable';

/** Not contributed: only the status bar item runs it. */
const SHOW_COMMAND = 'tandem.activity.show';

export interface ActivityPorts {
  tabs(): TabView[];
  /** Fires whenever the tabs changed (status, badges). */
  onTabs(listener: () => void): vscode.Disposable;
  /** Shows the conversation in the panel and lands on its waiting prompt, if any. */
  show(conversationId: string): void;
}

export class ActivityStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(private readonly ports: ActivityPorts) {
    super();
    this.item = this.register(vscode.window.createStatusBarItem('tandem.activity', vscode.StatusBarAlignment.Left, 10));
    this.item.name = l10n.t('Tandem activity');
    this.item.command = SHOW_COMMAND;
    this.register(vscode.commands.registerCommand(SHOW_COMMAND, () => this.showNext()));
    this.register(ports.onTabs(() => this.render()));
    this.render();
  }

  private render(): void {
    const shown = activityText(this.ports.tabs());
    if (!shown) return this.item.hide();
    this.item.text = shown.text;
    this.item.tooltip = shown.tooltip;
    this.item.accessibilityInformation = { label: shown.tooltip.replaceAll('\n', '. ') };
    this.item.backgroundColor = shown.waiting ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  private showNext(): void {
    const tabs = this.ports.tabs();
    const target = tabs.find(isWaiting) ?? tabs.find(isWorking);
    if (target) this.ports.show(target.id);
  }
}
