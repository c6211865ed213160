/** Builders for host messages used across the webview tests. */
import type { Entry, PanelSnapshot, ConversationStatus, TerminalView, ToolCallEntry } from '../../../src/protocol/messages';
import { PROTOCOL_VERSION } from '../../../src/protocol/messages';

export function snapshot(overrides: Partial<PanelSnapshot> = {}): PanelSnapshot {
  return {
    protocolVersion: PROTOCOL_VERSION,
    conversationId: 'c1',
    title: 'Test conversation',
    tabs: [{ id: 'c1', title: 'Test conversation', agentName: 'Test Agent', status: 'ready' }],
    status: { kind: 'ready', agentName: 'Test Agent' },
    entries: [],
    terminals: {},
    agents: [{ name: 'Test Agent', commandLine: 'test-agent --acp', builtIn: false }],
    selectedAgent: 'Test Agent',
    presets: [],
    followAgent: true,
    ...overrides,
  };
}

export const running: ConversationStatus = { kind: 'running', agentName: 'Test Agent' };
export const ready: ConversationStatus = { kind: 'ready', agentName: 'Test Agent' };

export function toolCall(id: string, overrides: Partial<ToolCallEntry> = {}): ToolCallEntry {
  return {
    kind: 'tool_call',
    id,
    toolCallId: `call-${id}`,
    title: `Tool ${id}`,
    toolKind: 'read',
    status: 'pending',
    content: [],
    locations: [],
    ...overrides,
  };
}

export function terminal(terminalId: string, overrides: Partial<TerminalView> = {}): TerminalView {
  return { terminalId, command: 'npm test', output: '', truncated: false, ...overrides };
}

export function agent(id: string, text: string): Entry {
  return { kind: 'agent', id, text };
}
