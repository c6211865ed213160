import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import { describeEntry, entryHost, parseAgentEntry, type AgentEntry } from '../../agents/agentEntry';
import { AGENT_PRESETS, DEMO_AGENT_NAME } from '../../agents/agentPresets';
import type { AgentChoice, AgentPreset } from '../../protocol/messages';
import { setting, updateUserSetting, userSetting, workspaceSettings } from '../settings/settings';
import type { AgentServerConfig } from './agentServerConfig';
import { userAgents } from './userAgentEntries';
import { Emitter } from '../../util/disposable';

/** Problems of entries already reported, so a bad entry is said once per window, not per read. */
const reported = new Set<string>();

/** What the built-in demo agent runs, in words (read when shown, so it is in the display language). */
function builtInNote(): string {
  return l10n.t('built in (no model needed)');
}

// The presets' table is vscode-free (src/agents/agentPresets.ts); its users import it from here as before.
export { AGENT_PRESETS, DEMO_AGENT_NAME };

/**
 * Agents that exist only in this window, never in settings (a transcript replay): listed with the
 * configured ones until the window reloads. Every AgentSettings instance sees them.
 */
const temporaryAgents = new Map<string, AgentServerConfig>();
const temporaryChanges = new Emitter<void>();
/** Fires when a temporary agent is added (the panel's agent list changes). */
export const onTemporaryAgentsChanged = temporaryChanges.event;

export function addTemporaryAgent(name: string, config: AgentServerConfig): void {
  temporaryAgents.set(name, config);
  temporaryChanges.fire();
}

/** An agent's line in a quick pick: what it runs, and "(workspace)" when the workspace's settings define it. */
export function choiceDescription(choice: AgentChoice): string {
  return choice.fromWorkspace ? l10n.t('{0} (workspace)', choice.commandLine) : choice.commandLine;
}

/** A resolved agent: its entry (what to start or reach), plus where it came from. */
export interface ResolvedAgent {
  name: string;
  entry: AgentEntry;
  builtIn: boolean;
  /**
   * Which settings define it: `workspace` when a workspace (or folder) has an entry of this name,
   * even one merged over the user's; `user` when only the user's settings do. Undefined for the
   * built-in and temporary agents.
   */
  origin?: 'user' | 'workspace';
}

const commandEntry = (config: AgentServerConfig): AgentEntry => ({
  kind: 'command',
  command: config.command,
  args: config.args ?? [],
  env: config.env ?? {},
  ...(config.sandbox ? { sandbox: config.sandbox } : {}),
});

/**
 * Reads `tandem.agents` defensively (settings are user-edited JSON; see agentEntry.ts for the three
 * kinds of entry) and adds the built-in demo agent, which runs the bundled script with the editor's
 * own Node (Electron as Node on the desktop).
 */
export class AgentSettings {
  constructor(
    private readonly extensionPath: string,
    /** Where a bad entry is reported (once). */
    private readonly warn: (text: string) => void = () => undefined,
  ) {}

  configured(): Map<string, AgentEntry> {
    const raw: unknown = setting('agents') ?? {};
    const out = new Map<string, AgentEntry>();
    if (typeof raw !== 'object' || raw === null) return out;
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
      const parsed = parseAgentEntry(value);
      if ('entry' in parsed) out.set(name, parsed.entry);
      else if (!reported.has(`${name}\u0000${parsed.problem}`)) {
        reported.add(`${name}\u0000${parsed.problem}`);
        this.warn(l10n.t('The agent "{0}" in tandem.agents is left out: {1}.', name, parsed.problem));
      }
    }
    return out;
  }

  all(): ResolvedAgent[] {
    const agents: ResolvedAgent[] = [];
    const user = userSetting('agents');
    const workspace = workspaceSettings('agents');
    const has = (value: unknown, name: string): boolean => typeof value === 'object' && value !== null && Object.hasOwn(value, name);
    // A temporary agent (a replay, a sandbox) wins over a configured entry of the same name: a
    // workspace's "Replay: x.jsonl" must not be started in its place, outside the sandbox.
    for (const [name, entry] of this.configured()) {
      if (temporaryAgents.has(name)) continue;
      const origin = workspace.some((v) => has(v, name)) ? 'workspace' : has(user, name) ? 'user' : undefined;
      agents.push({ name, entry, builtIn: false, ...(origin ? { origin } : {}) });
    }
    for (const [name, config] of temporaryAgents) agents.push({ name, entry: commandEntry(config), builtIn: false });
    if (!agents.some((a) => a.name === DEMO_AGENT_NAME)) agents.push(this.demoAgent());
    return agents;
  }

  find(name: string | undefined): ResolvedAgent | undefined {
    if (!name) return undefined;
    return this.all().find((a) => a.name === name);
  }

  /** `tandem.defaultAgent`, else the first configured agent; the demo only when chosen explicitly. */
  defaultAgentName(): string | undefined {
    const chosen = setting('defaultAgent');
    if (chosen && this.find(chosen)) return chosen;
    return this.configured().keys().next().value;
  }

  choices(): AgentChoice[] {
    return this.all().map((a) => {
      const host = a.builtIn ? undefined : entryHost(a.entry);
      const commandLine = a.builtIn ? builtInNote() : describeEntry(a.entry);
      return { name: a.name, commandLine, builtIn: a.builtIn, ...(host ? { host } : {}), ...(a.origin === 'workspace' ? { fromWorkspace: true } : {}) };
    });
  }

  presets(): AgentPreset[] {
    return AGENT_PRESETS.map(({ id, name, commandLine }) => ({ id, name, commandLine: id === 'demo' ? builtInNote() : commandLine }));
  }

  /** Adds a preset to the user's `tandem.agents` and makes it the default. */
  async addPreset(presetId: string): Promise<string | undefined> {
    const preset = AGENT_PRESETS.find((p) => p.id === presetId);
    if (!preset) return undefined;
    if (preset.id !== 'demo') {
      // The user's own entries only: the merged value would copy a workspace's entries (even ones
      // Tandem cannot use alone, which merge later with a same-named entry) into every workspace.
      const current: Record<string, unknown> = userAgents();
      current[preset.name] = preset.config;
      await updateUserSetting('agents', current);
    }
    await updateUserSetting('defaultAgent', preset.name);
    return preset.name;
  }

  private demoAgent(): ResolvedAgent {
    return {
      name: DEMO_AGENT_NAME,
      // Desktop VS Code's execPath is Electron: ELECTRON_RUN_AS_NODE makes it behave as plain Node.
      entry: { kind: 'command', command: process.execPath, args: [path.join(this.extensionPath, 'dist', 'demoAgent.js')], env: { ELECTRON_RUN_AS_NODE: '1' } },
      builtIn: true,
    };
  }
}
