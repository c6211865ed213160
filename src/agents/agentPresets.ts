/**
 * The well-known ACP agents the panel offers with one click when nothing is configured (vscode-free,
 * so tests read the same table the editor adds). Claude Code and Codex run the adapters' current
 * packages, `@agentclientprotocol/*`: the `@zed-industries/*` names stopped in June 2026 without being
 * marked deprecated (movedAdapters.ts tells users of entries that still run them).
 */
import type { AgentPreset } from '../protocol/messages';

export const DEMO_AGENT_NAME = 'Tandem Demo';

/** What a preset writes into the user's `tandem.agents` (the command entry shape of Zed's `agent_servers`). */
export interface PresetConfig {
  command: string;
  args?: string[];
}

export const AGENT_PRESETS: ReadonlyArray<AgentPreset & { config: PresetConfig }> = [
  {
    id: 'claude',
    name: 'Claude Code',
    commandLine: 'npx @agentclientprotocol/claude-agent-acp',
    config: { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'] },
  },
  {
    id: 'codex',
    name: 'Codex',
    commandLine: 'npx @agentclientprotocol/codex-acp',
    config: { command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'] },
  },
  { id: 'gemini', name: 'Gemini CLI', commandLine: 'gemini --acp', config: { command: 'gemini', args: ['--acp'] } },
  { id: 'opencode', name: 'OpenCode', commandLine: 'opencode acp', config: { command: 'opencode', args: ['acp'] } },
  { id: 'goose', name: 'Goose', commandLine: 'goose acp', config: { command: 'goose', args: ['acp'] } },
  { id: 'qwen', name: 'Qwen Code', commandLine: 'qwen --acp', config: { command: 'qwen', args: ['--acp'] } },
  { id: 'demo', name: DEMO_AGENT_NAME, commandLine: 'built in (no model needed)', config: { command: '' } },
];
