import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveCommand } from '../../acp/commandResolver';
import type { ProtocolLog } from '../../acp/protocolLog';
import { AgentInstallService, ChecksumError } from '../../agents/agentInstallService';
import type { PreparedInstall } from '../../agents/agentInstallService';
import type { HttpOptions } from '../../agents/httpClient';
import type { InstalledAgent } from '../../agents/installedAgents';
import { compareVersions, installPlans, unavailableReason } from '../../agents/installPlan';
import type { InstallPlan } from '../../agents/installPlan';
import { describeAge, RegistryClient } from '../../agents/registryClient';
import type { LoadedRegistry } from '../../agents/registryClient';
import { DEFAULT_REGISTRY_URL } from '../../agents/registryTypes';
import type { RegistryAgent } from '../../agents/registryTypes';
import { formatNumber } from '../../protocol/displayLanguage';
import { errorMessage } from '../../util/errors';
import { setting, updateUserSetting } from '../settings/settings';
import { editorProxySettings } from '../settings/editorProxy';
import { chooseSettingsName, removeEntry, writeEntry } from './userAgentEntries';

type AgentItem = vscode.QuickPickItem & { agent?: RegistryAgent; installed?: InstalledAgent };
type ActionItem = vscode.QuickPickItem & { run: () => Promise<void> };

/**
 * `Tandem: Install Agent…`: the agents of the ACP registry, installed in one click into
 * `tandem.agents` (user settings), then updated, rolled back or uninstalled from the same list.
 * Downloads live in the extension's global storage; the registry index is cached there too.
 */
export class AgentInstaller {
  private readonly service: AgentInstallService;
  private readonly registry: RegistryClient;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Pick<ProtocolLog, 'info' | 'warn' | 'error'>,
  ) {
    const storage = context.globalStorageUri.fsPath;
    // Getters, so a changed http.proxy applies without a reload.
    const http = this.httpOptions.bind(this);
    this.service = new AgentInstallService({
      root: path.join(storage, 'agents'),
      get http() {
        return http();
      },
    });
    this.registry = new RegistryClient({
      // The user's mirror, if any (an application-scoped setting: a workspace cannot redirect installs).
      get url() {
        return setting('registryUrl')?.trim() || DEFAULT_REGISTRY_URL;
      },
      cacheFile: path.join(storage, 'registry-cache.json'),
      snapshotFile: path.join(context.extensionPath, 'media', 'registry-snapshot.json'),
      get http() {
        return http();
      },
    });
  }

  /** The command: pick an agent, then what to do with it. */
  async run(): Promise<void> {
    await this.service.installed.load(true);
    const pick = vscode.window.createQuickPick<AgentItem>();
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.buttons = [{ iconPath: new vscode.ThemeIcon('refresh'), tooltip: l10n.t('Refresh from the registry') }];
    const fill = async (refresh: boolean): Promise<void> => {
      pick.busy = true;
      try {
        const loaded = await this.registry.load({ refresh });
        pick.title = titleOf(loaded);
        pick.placeholder = loaded.offline ? offlineNote(loaded, loaded.offline) : l10n.t('Pick an agent to install, update, roll back or uninstall');
        pick.items = this.items(loaded);
        if (loaded.problems.some((p) => p.dropped))
          this.log.warn(
            `ACP registry: left out ${loaded.problems
              .filter((p) => p.dropped)
              .map((p) => `${p.entry} (${p.reason})`)
              .join('; ')}`,
          );
      } catch (err) {
        pick.placeholder = errorMessage(err);
      } finally {
        pick.busy = false;
      }
    };
    const chosen = await new Promise<AgentItem | undefined>((resolve) => {
      pick.onDidTriggerButton(() => void fill(true));
      pick.onDidAccept(() => resolve(pick.selectedItems[0]));
      pick.onDidHide(() => resolve(undefined));
      pick.show();
      void fill(false);
    });
    pick.dispose();
    if (chosen) await this.act(chosen);
  }

  private items(loaded: LoadedRegistry): AgentItem[] {
    const machine = { platform: process.platform, arch: process.arch };
    const installed = this.service.installed.list();
    const byId = new Map(loaded.agents.map((a) => [a.id, a]));
    const mine: AgentItem[] = installed.map((i) => {
      const agent = byId.get(i.id);
      const description =
        agent && compareVersions(agent.version, i.current.version) > 0
          ? l10n.t('{0} installed ({1}) · update to {2} available', i.current.version, i.current.kind, agent.version)
          : l10n.t('{0} installed ({1})', i.current.version, i.current.kind);
      return {
        label: `$(check) ${i.settingsName}`,
        description,
        detail: agent?.description ?? l10n.t('No longer listed in the registry'),
        agent,
        installed: i,
      };
    });
    const others: AgentItem[] = loaded.agents
      .filter((a) => !installed.some((i) => i.id === a.id))
      .map((agent) => {
        const missing = unavailableReason(agent, machine);
        const kinds = installPlans(agent, machine).map((p) => (p.kind === 'binary' ? l10n.t('download') : p.kind));
        return {
          label: agent.name,
          description: `${agent.version} · ${missing ? l10n.t('not available here') : kinds.join(', ')}`,
          detail: missing ?? agent.description,
          agent,
        };
      });
    const separator = (label: string): AgentItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
    return [...(mine.length ? [separator(l10n.t('Installed')), ...mine] : []), separator(l10n.t('ACP registry')), ...others];
  }

  private async act(item: AgentItem): Promise<void> {
    const { agent, installed } = item;
    const machine = { platform: process.platform, arch: process.arch };
    const plans = agent ? installPlans(agent, machine) : [];
    const actions: ActionItem[] = [];
    if (agent && plans.length > 0) {
      const verb = !installed ? 'install' : compareVersions(agent.version, installed.current.version) > 0 ? 'update' : 'reinstall';
      for (const plan of plans) {
        const how =
          plans.length > 1
            ? plan.kind !== 'binary'
              ? plan.kind
              : plan.emulated
                ? l10n.t('a download (runs under {0})', plan.emulated)
                : l10n.t('a download')
            : undefined;
        actions.push({ label: actionLabel(verb, agent.version, how), detail: plan.summary, run: () => this.install(agent, plan, installed) });
      }
    } else if (agent) {
      void vscode.window.showWarningMessage(`${agent.name}: ${unavailableReason(agent, machine)}`);
    }
    if (installed?.previous)
      actions.push({
        label: l10n.t('Roll back to {0}', installed.previous.version),
        description: l10n.t('from {0}', installed.current.version),
        run: () => this.rollback(installed),
      });
    if (installed) {
      actions.push({
        label: l10n.t('Check Agent'),
        description: l10n.t('start it and show what it supports'),
        run: async () => void (await vscode.commands.executeCommand('tandem.checkAgent', installed.settingsName)),
      });
      actions.push({ label: l10n.t('Uninstall'), run: () => this.uninstall(installed) });
    }
    if (actions.length === 0) return;
    const title = installed ? `${installed.settingsName} ${installed.current.version}` : `${agent?.name} ${agent?.version}`;
    const action = await vscode.window.showQuickPick(actions, { title, placeHolder: agent?.description });
    await action?.run();
  }

  private async install(agent: RegistryAgent, plan: InstallPlan, installed: InstalledAgent | undefined): Promise<void> {
    const name = installed?.settingsName ?? (await chooseSettingsName(agent.name));
    if (!name) return;
    let prepared: PreparedInstall;
    try {
      prepared = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: l10n.t('Installing {0} {1}', agent.name, agent.version), cancellable: true },
        (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          let shown = 0;
          return this.service.prepare(plan, {
            signal: controller.signal,
            onStage: (stage) => progress.report({ message: stage === 'download' ? l10n.t('downloading…') : l10n.t('unpacking…') }),
            onProgress: (received, total) => {
              if (!total) return progress.report({ message: l10n.t('downloading… {0}', mb(received)) });
              const percent = Math.floor((received / total) * 100);
              progress.report({ message: l10n.t('downloading… {0} of {1}', mb(received), mb(total)), increment: percent - shown });
              shown = percent;
            },
          });
        },
      );
    } catch (err) {
      if ((err as Error).name === 'AbortError') return void vscode.window.showInformationMessage(l10n.t('Installing {0} was cancelled.', agent.name));
      this.log.error(`Installing ${agent.name} ${agent.version} failed: ${errorMessage(err)}`);
      const message =
        err instanceof ChecksumError
          ? l10n.t('{0} was not installed: {1}', agent.name, err.message)
          : l10n.t('Installing {0} failed: {1}', agent.name, errorMessage(err));
      return void vscode.window.showErrorMessage(message);
    }
    try {
      await writeEntry(name, prepared.entry);
    } catch (err) {
      await this.service.discard(prepared);
      return void vscode.window.showErrorMessage(l10n.t('Could not write tandem.agents: {0}', errorMessage(err)));
    }
    await this.service.commit(prepared, name);
    this.log.info(`Installed ${agent.id} ${agent.version} (${plan.kind}) as '${name}': ${[prepared.entry.command, ...prepared.entry.args].join(' ')}`);
    const notes: string[] = [];
    if (prepared.verified === false) notes.push(l10n.t('the registry publishes no checksum for this download, so it was not verified'));
    if (plan.kind !== 'binary' && !resolveCommand(plan.runtime, process.env))
      notes.push(l10n.t('{0} was not found on PATH — install {1} first', plan.runtime, plan.runtime === 'npx' ? 'Node.js' : 'uv'));
    const use = l10n.t('Use It');
    const check = l10n.t('Check It');
    const installedText = notes.length
      ? l10n.t('{0} {1} is installed ({2}).', name, agent.version, notes.join('; '))
      : l10n.t('{0} {1} is installed.', name, agent.version);
    const answer = await vscode.window.showInformationMessage(installedText, use, check);
    if (answer === use) await updateUserSetting('defaultAgent', name);
    if (answer === check) await vscode.commands.executeCommand('tandem.checkAgent', name);
  }

  private async rollback(installed: InstalledAgent): Promise<void> {
    const agent = await this.service.rollback(installed.id);
    try {
      await writeEntry(agent.settingsName, agent.current.entry);
    } catch (err) {
      await this.service.rollback(installed.id);
      return void vscode.window.showErrorMessage(l10n.t('Could not write tandem.agents: {0}', errorMessage(err)));
    }
    this.log.info(`Rolled ${installed.id} back from ${installed.current.version} to ${agent.current.version}.`);
    void vscode.window.showInformationMessage(
      l10n.t('{0} is back at {1}. Running conversations keep their agent until it restarts.', agent.settingsName, agent.current.version),
    );
  }

  private async uninstall(installed: InstalledAgent): Promise<void> {
    const uninstall = l10n.t('Uninstall');
    const ok = await vscode.window.showWarningMessage(
      l10n.t('Uninstall {0}?', installed.settingsName),
      {
        modal: true,
        detail: installed.current.dir
          ? l10n.t('It is removed from tandem.agents and its downloaded files are deleted. Its conversations are kept.')
          : l10n.t('It is removed from tandem.agents. Its conversations are kept.'),
      },
      uninstall,
    );
    if (ok !== uninstall) return;
    await removeEntry(installed.settingsName);
    await this.service.uninstall(installed.id);
    this.log.info(`Uninstalled ${installed.id} ('${installed.settingsName}').`);
    void vscode.window.showInformationMessage(l10n.t('{0} was uninstalled.', installed.settingsName));
  }

  private httpOptions(): HttpOptions {
    // The one reading of the editor's proxy settings (the agents' launches use it too).
    const { proxy } = editorProxySettings();
    return proxy ? { proxy } : {};
  }
}

function titleOf(loaded: LoadedRegistry): string {
  if (loaded.offline) return l10n.t('Install Agent — ACP registry (offline)');
  if (loaded.origin === 'cache') return l10n.t('Install Agent — ACP registry (updated {0})', describeAge(loaded.fetchedAt));
  return l10n.t('Install Agent — ACP registry');
}

function offlineNote(loaded: LoadedRegistry, why: string): string {
  return loaded.origin === 'snapshot'
    ? l10n.t('Offline — showing the list bundled with Tandem ({0}). {1}', describeAge(loaded.fetchedAt), why)
    : l10n.t('Offline — showing the list cached {0}. {1}', describeAge(loaded.fetchedAt), why);
}

function actionLabel(verb: 'install' | 'update' | 'reinstall', version: string, how: string | undefined): string {
  switch (verb) {
    case 'install':
      return how ? l10n.t('Install {0} with {1}', version, how) : l10n.t('Install {0}', version);
    case 'update':
      return how ? l10n.t('Update to {0} with {1}', version, how) : l10n.t('Update to {0}', version);
    case 'reinstall':
      return how ? l10n.t('Reinstall {0} with {1}', version, how) : l10n.t('Reinstall {0}', version);
  }
}

function mb(bytes: number): string {
  return `${formatNumber(bytes / 1024 / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}
