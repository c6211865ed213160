import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveCommand } from '../acp/commandResolver';
import type { ProtocolLog } from '../acp/protocolLog';
import { AgentInstallService, ChecksumError } from '../agents/agentInstallService';
import type { PreparedInstall } from '../agents/agentInstallService';
import type { HttpOptions } from '../agents/httpClient';
import type { InstalledAgent } from '../agents/installedAgents';
import { compareVersions, installPlans, unavailableReason } from '../agents/installPlan';
import type { AgentEntry, InstallPlan } from '../agents/installPlan';
import { describeAge, RegistryClient } from '../agents/registryClient';
import type { LoadedRegistry } from '../agents/registryClient';
import { DEFAULT_REGISTRY_URL } from '../agents/registryTypes';
import type { RegistryAgent } from '../agents/registryTypes';
import { errorMessage } from '../util/errors';
import type { AgentServerConfig } from './agentSettings';

type AgentItem = vscode.QuickPickItem & { agent?: RegistryAgent; installed?: InstalledAgent };
type ActionItem = vscode.QuickPickItem & { run: () => Promise<void> };

const REFRESH: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: 'Refresh from the registry' };

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
    this.service = new AgentInstallService({ root: path.join(storage, 'agents'), get http() { return http(); } });
    this.registry = new RegistryClient({
      url: DEFAULT_REGISTRY_URL,
      cacheFile: path.join(storage, 'registry-cache.json'),
      snapshotFile: path.join(context.extensionPath, 'media', 'registry-snapshot.json'),
      get http() { return http(); },
    });
  }

  /** The command: pick an agent, then what to do with it. */
  async run(): Promise<void> {
    await this.service.installed.load(true);
    const pick = vscode.window.createQuickPick<AgentItem>();
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.buttons = [REFRESH];
    const fill = async (refresh: boolean): Promise<void> => {
      pick.busy = true;
      try {
        const loaded = await this.registry.load({ refresh });
        pick.title = `Install Agent — ACP registry${statusOf(loaded)}`;
        pick.placeholder = loaded.offline ? `Offline — showing ${originOf(loaded)}. ${loaded.offline}` : 'Pick an agent to install, update, roll back or uninstall';
        pick.items = this.items(loaded);
        if (loaded.problems.some((p) => p.dropped)) this.log.warn(`ACP registry: left out ${loaded.problems.filter((p) => p.dropped).map((p) => `${p.entry} (${p.reason})`).join('; ')}`);
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
      const update = agent && compareVersions(agent.version, i.current.version) > 0 ? ` · update to ${agent.version} available` : '';
      return { label: `$(check) ${i.settingsName}`, description: `${i.current.version} installed (${i.current.kind})${update}`, detail: agent?.description ?? 'No longer listed in the registry', agent, installed: i };
    });
    const others: AgentItem[] = loaded.agents
      .filter((a) => !installed.some((i) => i.id === a.id))
      .map((agent) => {
        const missing = unavailableReason(agent, machine);
        const kinds = installPlans(agent, machine).map((p) => (p.kind === 'binary' ? 'download' : p.kind));
        return { label: agent.name, description: `${agent.version} · ${missing ? 'not available here' : kinds.join(', ')}`, detail: missing ?? agent.description, agent };
      });
    const separator = (label: string): AgentItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
    return [...(mine.length ? [separator('Installed'), ...mine] : []), separator('ACP registry'), ...others];
  }

  private async act(item: AgentItem): Promise<void> {
    const { agent, installed } = item;
    const machine = { platform: process.platform, arch: process.arch };
    const plans = agent ? installPlans(agent, machine) : [];
    const actions: ActionItem[] = [];
    if (agent && plans.length > 0) {
      const verb = !installed ? 'Install' : compareVersions(agent.version, installed.current.version) > 0 ? 'Update to' : 'Reinstall';
      for (const plan of plans) {
        const how = plans.length > 1 ? ` with ${plan.kind === 'binary' ? `a download${plan.emulated ? ` (runs under ${plan.emulated})` : ''}` : plan.kind}` : '';
        actions.push({ label: `${verb} ${agent.version}${how}`, detail: plan.summary, run: () => this.install(agent, plan, installed) });
      }
    } else if (agent) {
      void vscode.window.showWarningMessage(`${agent.name}: ${unavailableReason(agent, machine)}`);
    }
    if (installed?.previous) actions.push({ label: `Roll back to ${installed.previous.version}`, description: `from ${installed.current.version}`, run: () => this.rollback(installed) });
    if (installed) {
      actions.push({ label: 'Check Agent', description: 'start it and show what it supports', run: async () => void (await vscode.commands.executeCommand('tandem.checkAgent', installed.settingsName)) });
      actions.push({ label: 'Uninstall', run: () => this.uninstall(installed) });
    }
    if (actions.length === 0) return;
    const title = installed ? `${installed.settingsName} ${installed.current.version}` : `${agent?.name} ${agent?.version}`;
    const action = await vscode.window.showQuickPick(actions, { title, placeHolder: agent?.description });
    await action?.run();
  }

  private async install(agent: RegistryAgent, plan: InstallPlan, installed: InstalledAgent | undefined): Promise<void> {
    const name = installed?.settingsName ?? (await this.chooseSettingsName(agent.name));
    if (!name) return;
    let prepared: PreparedInstall;
    try {
      prepared = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Installing ${agent.name} ${agent.version}`, cancellable: true },
        (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          let shown = 0;
          return this.service.prepare(plan, {
            signal: controller.signal,
            onStage: (stage) => progress.report({ message: stage === 'download' ? 'downloading…' : 'unpacking…' }),
            onProgress: (received, total) => {
              if (!total) return progress.report({ message: `downloading… ${mb(received)}` });
              const percent = Math.floor((received / total) * 100);
              progress.report({ message: `downloading… ${mb(received)} of ${mb(total)}`, increment: percent - shown });
              shown = percent;
            },
          });
        },
      );
    } catch (err) {
      if ((err as Error).name === 'AbortError') return void vscode.window.showInformationMessage(`Installing ${agent.name} was cancelled.`);
      this.log.error(`Installing ${agent.name} ${agent.version} failed: ${errorMessage(err)}`);
      const message = err instanceof ChecksumError ? `${agent.name} was not installed: ${err.message}` : `Installing ${agent.name} failed: ${errorMessage(err)}`;
      return void vscode.window.showErrorMessage(message);
    }
    try {
      await this.writeEntry(name, prepared.entry);
    } catch (err) {
      await this.service.discard(prepared);
      return void vscode.window.showErrorMessage(`Could not write tandem.agents: ${errorMessage(err)}`);
    }
    await this.service.commit(prepared, name);
    this.log.info(`Installed ${agent.id} ${agent.version} (${plan.kind}) as '${name}': ${[prepared.entry.command, ...prepared.entry.args].join(' ')}`);
    const notes: string[] = [];
    if (prepared.verified === false) notes.push('the registry publishes no checksum for this download, so it was not verified');
    if (plan.kind !== 'binary' && !resolveCommand(plan.runtime, process.env)) notes.push(`${plan.runtime} was not found on PATH — install ${plan.runtime === 'npx' ? 'Node.js' : 'uv'} first`);
    const use = 'Use It';
    const check = 'Check It';
    const answer = await vscode.window.showInformationMessage(`${name} ${agent.version} is installed${notes.length ? ` (${notes.join('; ')})` : ''}.`, use, check);
    if (answer === use) await vscode.workspace.getConfiguration('tandem').update('defaultAgent', name, vscode.ConfigurationTarget.Global);
    if (answer === check) await vscode.commands.executeCommand('tandem.checkAgent', name);
  }

  private async rollback(installed: InstalledAgent): Promise<void> {
    const agent = await this.service.rollback(installed.id);
    try {
      await this.writeEntry(agent.settingsName, agent.current.entry);
    } catch (err) {
      await this.service.rollback(installed.id);
      return void vscode.window.showErrorMessage(`Could not write tandem.agents: ${errorMessage(err)}`);
    }
    this.log.info(`Rolled ${installed.id} back from ${installed.current.version} to ${agent.current.version}.`);
    void vscode.window.showInformationMessage(`${agent.settingsName} is back at ${agent.current.version}. Running conversations keep their agent until it restarts.`);
  }

  private async uninstall(installed: InstalledAgent): Promise<void> {
    const ok = await vscode.window.showWarningMessage(
      `Uninstall ${installed.settingsName}?`,
      { modal: true, detail: `It is removed from tandem.agents${installed.current.dir ? ' and its downloaded files are deleted' : ''}. Its conversations are kept.` },
      'Uninstall',
    );
    if (ok !== 'Uninstall') return;
    await this.removeEntry(installed.settingsName);
    await this.service.uninstall(installed.id);
    this.log.info(`Uninstalled ${installed.id} ('${installed.settingsName}').`);
    void vscode.window.showInformationMessage(`${installed.settingsName} was uninstalled.`);
  }

  /** The agent's name, unless a hand-written entry already has it: then replace it or keep both. */
  private async chooseSettingsName(name: string): Promise<string | undefined> {
    const existing = this.userAgents();
    if (!Object.hasOwn(existing, name)) return name;
    const replace = 'Replace';
    const both = 'Keep Both';
    const answer = await vscode.window.showWarningMessage(`tandem.agents already has an agent named "${name}".`, { modal: true, detail: 'Replace it with the registry version, or add the registry version under another name?' }, replace, both);
    if (answer === replace) return name;
    if (answer !== both) return undefined;
    for (let i = 1; ; i++) {
      const candidate = i === 1 ? `${name} (registry)` : `${name} (registry ${i})`;
      if (!Object.hasOwn(existing, candidate)) return candidate;
    }
  }

  /** The user-level value only: a workspace's agents must never be copied into user settings. */
  private userAgents(): Record<string, AgentServerConfig> {
    const value = vscode.workspace.getConfiguration('tandem').inspect<Record<string, AgentServerConfig>>('agents')?.globalValue;
    return value && typeof value === 'object' ? { ...value } : {};
  }

  private async writeEntry(name: string, entry: AgentEntry): Promise<void> {
    const agents = this.userAgents();
    agents[name] = Object.keys(entry.env).length > 0 ? { command: entry.command, args: entry.args, env: entry.env } : { command: entry.command, args: entry.args };
    await vscode.workspace.getConfiguration('tandem').update('agents', agents, vscode.ConfigurationTarget.Global);
  }

  private async removeEntry(name: string): Promise<void> {
    const config = vscode.workspace.getConfiguration('tandem');
    const agents = this.userAgents();
    delete agents[name];
    await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    if (config.inspect<string>('defaultAgent')?.globalValue === name) await config.update('defaultAgent', undefined, vscode.ConfigurationTarget.Global);
  }

  private httpOptions(): HttpOptions {
    const proxy = vscode.workspace.getConfiguration('http').get<string>('proxy')?.trim();
    return proxy ? { proxy } : {};
  }
}

function statusOf(loaded: LoadedRegistry): string {
  return loaded.offline ? ' (offline)' : loaded.origin === 'cache' ? ` (updated ${describeAge(loaded.fetchedAt)})` : '';
}

function originOf(loaded: LoadedRegistry): string {
  return loaded.origin === 'snapshot' ? `the list bundled with Tandem (${describeAge(loaded.fetchedAt)})` : `the list cached ${describeAge(loaded.fetchedAt)}`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
