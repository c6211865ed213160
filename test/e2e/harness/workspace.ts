// Temp workspace folders for e2e tests, with the agent configured in .vscode/settings.json exactly as
// a user would (tandem.agents), and scripted agents run as real processes over stdio.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { requireFile, scriptedAgentJs } from './paths';
import type { AgentScript as FixtureScript } from '../../fixtures/scriptedAgent';

/** One entry of `tandem.agents` (the same shape as Zed's `agent_servers`). */
export interface AgentConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/**
 * The scripted agent's script: see test/fixtures/scriptedAgent.ts for the step vocabulary. Every
 * fixture field is accepted (session persistence: initialize.agentCapabilities, load, resume, list,
 * close, knownSessions, stateFile, newSession.title…); `turns` stays loose so scenarios may keep
 * plain-string stop reasons.
 */
export interface AgentScript extends Omit<FixtureScript, 'turns'> {
  turns?: Array<{ steps: Array<Record<string, unknown>>; stopReason?: string; ignoreCancel?: boolean }>;
}

export interface ScriptedAgent {
  config: AgentConfig;
  /** Temp folder holding the script and the log. */
  dir: string;
  /** File the agent appends every message it receives to (SCRIPTED_AGENT_LOG). */
  logFile: string;
}

export interface Workspace {
  dir: string;
  /** Path of a file inside the workspace. */
  path(rel: string): string;
}

export interface WorkspaceOptions {
  /** Relative path → content, written before the workbench opens. */
  files?: Record<string, string>;
  /** Workspace settings (.vscode/settings.json), e.g. tandem.agents and tandem.defaultAgent. */
  settings?: Record<string, unknown>;
}

export function createWorkspace(options: WorkspaceOptions = {}): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-ws-'));
  const write = (rel: string, content: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  };
  for (const [rel, content] of Object.entries(options.files ?? {})) write(rel, content);
  if (options.settings) write('.vscode/settings.json', JSON.stringify(options.settings, null, 2));
  return { dir, path: (rel) => join(dir, rel) };
}

/** Writes `script` to a temp file and returns the tandem.agents entry that runs it. */
export function scriptedAgent(script: AgentScript): ScriptedAgent {
  requireFile(scriptedAgentJs, 'run `npm run build`');
  const dir = mkdtempSync(join(tmpdir(), 'tandem-agent-'));
  const scriptFile = join(dir, 'script.json');
  const logFile = join(dir, 'received.log');
  writeFileSync(scriptFile, JSON.stringify(script, null, 2));
  writeFileSync(logFile, '');
  return {
    config: { command: process.execPath, args: [scriptedAgentJs, scriptFile], env: { SCRIPTED_AGENT_LOG: logFile } },
    dir,
    logFile,
  };
}

/** Workspace settings selecting one named agent. */
export function agentSettings(name: string, config: AgentConfig): Record<string, unknown> {
  return { 'tandem.agents': { [name]: config }, 'tandem.defaultAgent': name };
}

/** Writes `dir`/.vscode/settings.json selecting `config` as the only agent (plus `extra` settings). */
export function selectAgent(dir: string, name: string, config: AgentConfig, extra: Record<string, unknown> = {}): void {
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ ...agentSettings(name, config), ...extra }, null, 2));
}

/** Only what differs from the extension host's environment goes into tandem.agents (Tandem merges it over). */
export function changedEnv(full: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(full)) if (process.env[k] !== v) env[k] = v;
  return env;
}

/** Shorthand for an `agent_message_chunk` step of a script. */
export function say(text: string): Record<string, unknown> {
  return { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } };
}

/** The methods a scripted agent received, in order, read from its log file (one JSON message a line). */
export function loggedMethods(logFile: string): string[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { method?: string }).method ?? '');
}
