import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { PermissionRule, RuleMatcher } from '../../permissions/permissionRule';
import { matcherProblem, matcherValue } from '../../permissions/permissionRule';
import { ruleLabel } from '../../permissions/ruleProposal';
import { formatDate } from '../../protocol/displayLanguage';
import type { RuleStore } from '../../permissions/ruleStore';

type Item = vscode.QuickPickItem & { rule: PermissionRule };

function scopeText(scope: PermissionRule['scope']): string {
  switch (scope) {
    case 'conversation':
      return l10n.t('this conversation');
    case 'workspace':
      return l10n.t('this workspace');
    case 'global':
      return l10n.t('everywhere');
  }
}

function withValue(matcher: RuleMatcher, value: string): RuleMatcher {
  switch (matcher.type) {
    case 'pathGlob':
      return { type: 'pathGlob', glob: value };
    case 'commandPrefix':
      return { type: 'commandPrefix', prefix: value };
    case 'urlHost':
      return { type: 'urlHost', host: value };
    case 'toolName':
      return { type: 'toolName', name: value };
  }
}

function matcherPrompt(type: RuleMatcher['type']): string {
  switch (type) {
    case 'commandPrefix':
      return l10n.t('Commands starting with these words (a compound command never matches)');
    case 'pathGlob':
      return l10n.t('Files matching this glob, relative to the workspace folder');
    case 'urlHost':
      return l10n.t('URLs on this host (*.example.com for its subdomains)');
    case 'toolName':
      return l10n.t('The tool name');
  }
}

function ruleDetail(rule: PermissionRule): string {
  const decision = rule.decision === 'allow' ? l10n.t('allow') : l10n.t('reject');
  const agent = rule.agent === '*' ? l10n.t('any') : rule.agent;
  return rule.createdAt
    ? l10n.t('{0} · {1} · agent: {2} · since {3}', decision, rule.toolKind, agent, formatDate(new Date(rule.createdAt)))
    : l10n.t('{0} · {1} · agent: {2}', decision, rule.toolKind, agent);
}

/**
 * `Tandem: Manage Permission Rules`: every rule that applies here (this conversation's, this
 * workspace's, the global ones), with edit, allow/reject and delete. Rules live in the extension's
 * storage, never in settings a repository could ship.
 */
export async function manageRules(store: RuleStore, conversationId: string | undefined, focusRuleId?: string): Promise<void> {
  const EDIT: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: l10n.t('Edit what it matches') };
  const FLIP: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('arrow-swap'), tooltip: l10n.t('Switch between allow and reject') };
  const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: l10n.t('Delete') };
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = l10n.t('Permission rules');
  pick.placeholder = l10n.t('Rules answer permission prompts without asking (type to filter)');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const refresh = (): void => {
    const rules = store.list(conversationId);
    pick.items = rules.map((rule) => ({
      label: `${rule.decision === 'allow' ? '$(check)' : '$(circle-slash)'} ${ruleLabel(rule)}`,
      description: scopeText(rule.scope),
      detail: ruleDetail(rule),
      buttons: [EDIT, FLIP, DELETE],
      rule,
    }));
    const focused = pick.items.find((i) => i.rule.id === focusRuleId);
    if (focused) pick.activeItems = [focused];
    if (rules.length === 0) pick.placeholder = l10n.t('No rules yet: pick an "Always …" option on a permission prompt and save the rule it proposes');
  };
  refresh();
  const subscription = store.onDidChange(refresh);
  let inDialog = false;
  pick.onDidTriggerItemButton(async ({ item, button }) => {
    inDialog = true;
    try {
      if (button === EDIT) {
        const value = await vscode.window.showInputBox({
          title: l10n.t('Edit the permission rule'),
          prompt: matcherPrompt(item.rule.matcher.type),
          value: matcherValue(item.rule.matcher),
          validateInput: (v) => matcherProblem(item.rule.toolKind, withValue(item.rule.matcher, v.trim())),
        });
        if (value !== undefined) await report(store.update(item.rule.id, { matcher: withValue(item.rule.matcher, value.trim()) }));
      } else if (button === FLIP) {
        await report(store.update(item.rule.id, { decision: item.rule.decision === 'allow' ? 'reject' : 'allow' }));
      } else if (button === DELETE) {
        const remove = l10n.t('Delete');
        const answer = await vscode.window.showWarningMessage(l10n.t('Delete the rule "{0}"?', ruleLabel(item.rule)), { modal: true }, remove);
        if (answer === remove) await report(store.remove(item.rule.id));
      }
    } finally {
      inDialog = false;
      refresh();
      pick.show();
    }
  });
  await new Promise<void>((resolve) => {
    pick.onDidAccept(() => pick.hide());
    pick.onDidHide(() => {
      if (!inDialog) resolve();
    });
    pick.show();
  });
  subscription.dispose();
  pick.dispose();
}

async function report(result: Promise<{ ok: boolean; error?: string }>): Promise<void> {
  const outcome = await result;
  if (!outcome.ok) void vscode.window.showErrorMessage(l10n.t('Tandem: the rule was not changed: {0}', outcome.error ?? l10n.t('unknown error')));
}
