import * as vscode from 'vscode';
import type { PermissionRule, RuleMatcher } from '../permissions/permissionRule';
import { matcherProblem } from '../permissions/permissionRule';
import { ruleLabel } from '../permissions/ruleProposal';
import type { RuleStore } from '../permissions/ruleStore';

type Item = vscode.QuickPickItem & { rule: PermissionRule };

const EDIT: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Edit what it matches' };
const FLIP: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('arrow-swap'), tooltip: 'Switch between allow and reject' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };

const SCOPES: Record<PermissionRule['scope'], string> = { conversation: 'this conversation', workspace: 'this workspace', global: 'everywhere' };

function matcherValue(matcher: RuleMatcher): string {
  switch (matcher.type) {
    case 'pathGlob':
      return matcher.glob;
    case 'commandPrefix':
      return matcher.prefix;
    case 'urlHost':
      return matcher.host;
    case 'toolName':
      return matcher.name;
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

const MATCHER_PROMPTS: Record<RuleMatcher['type'], string> = {
  commandPrefix: 'Commands starting with these words (a compound command never matches)',
  pathGlob: 'Files matching this glob, relative to the workspace folder',
  urlHost: 'URLs on this host (*.example.com for its subdomains)',
  toolName: 'The tool name',
};

/**
 * `Tandem: Manage Permission Rules`: every rule that applies here (this conversation's, this
 * workspace's, the global ones), with edit, allow/reject and delete. Rules live in the extension's
 * storage, never in settings a repository could ship.
 */
export async function manageRules(store: RuleStore, conversationId: string | undefined, focusRuleId?: string): Promise<void> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Permission rules';
  pick.placeholder = 'Rules answer permission prompts without asking (type to filter)';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const refresh = (): void => {
    const rules = store.list(conversationId);
    pick.items = rules.map((rule) => ({
      label: `${rule.decision === 'allow' ? '$(check)' : '$(circle-slash)'} ${ruleLabel(rule)}`,
      description: SCOPES[rule.scope],
      detail: `${rule.decision} · ${rule.toolKind} · agent: ${rule.agent === '*' ? 'any' : rule.agent}${rule.createdAt ? ` · since ${new Date(rule.createdAt).toLocaleDateString(vscode.env.language)}` : ''}`,
      buttons: [EDIT, FLIP, DELETE],
      rule,
    }));
    const focused = pick.items.find((i) => i.rule.id === focusRuleId);
    if (focused) pick.activeItems = [focused];
    if (rules.length === 0) pick.placeholder = 'No rules yet: pick an "Always …" option on a permission prompt and save the rule it proposes';
  };
  refresh();
  const subscription = store.onDidChange(refresh);
  let inDialog = false;
  pick.onDidTriggerItemButton(async ({ item, button }) => {
    inDialog = true;
    try {
      if (button === EDIT) {
        const value = await vscode.window.showInputBox({
          title: 'Edit the permission rule',
          prompt: MATCHER_PROMPTS[item.rule.matcher.type],
          value: matcherValue(item.rule.matcher),
          validateInput: (v) => matcherProblem(item.rule.toolKind, withValue(item.rule.matcher, v.trim())),
        });
        if (value !== undefined) await report(store.update(item.rule.id, { matcher: withValue(item.rule.matcher, value.trim()) }));
      } else if (button === FLIP) {
        await report(store.update(item.rule.id, { decision: item.rule.decision === 'allow' ? 'reject' : 'allow' }));
      } else if (button === DELETE) {
        const answer = await vscode.window.showWarningMessage(`Delete the rule "${ruleLabel(item.rule)}"?`, { modal: true }, 'Delete');
        if (answer === 'Delete') await report(store.remove(item.rule.id));
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
  if (!outcome.ok) void vscode.window.showErrorMessage(`Tandem: the rule was not changed: ${outcome.error ?? 'unknown error'}`);
}
