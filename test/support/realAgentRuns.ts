/**
 * Real agents in a real ConversationManager, recorded as the extension records them: the preset
 * claude-agent-acp (0.23.1) against the fake Anthropic server, and the Gemini CLI (`gemini --acp`)
 * against the fake Gemini server, each for one turn that reads, asks permission and edits. Used to
 * write the transcripts in test/fixtures/transcripts (record.ts) and by the tests that replay them
 * (replayRecorded: a transcript through the bundled replay agent and the real core).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROPOSED_WRITE_PREFIX } from '../../src/conversation/permissionDesk';
import { parseTranscript } from '../../src/inspector/transcript';
import { agentEnv, editOnDiskFiles, scenario, startFakeAnthropic } from '../fixtures/fakeAnthropic/index';
import { geminiAgentEnv, geminiScenario, geminiScenarioFiles, startFakeGemini } from '../fixtures/fakeGemini/index';
import type { Entry, ToolCallEntry } from '../../src/protocol/entryViews';
import type { ProtocolLog } from '../../src/acp/protocolLog';
import type { EditorPorts } from '../../src/conversation/ports';
import { repoRoot, scriptedSession, type ScriptedSession } from './scriptedSession';
import { cardShapes, recorder, replaySession } from './transcripts';

export type RealAgent = 'claude-agent-acp' | 'gemini-cli';
export const REAL_AGENTS: readonly RealAgent[] = ['claude-agent-acp', 'gemini-cli'];

export const REAL_AGENT_PROMPTS: Record<RealAgent, string> = {
  'claude-agent-acp': 'Please mark the notes reviewed, add a greeting file and say hello in the shell.',
  'gemini-cli': 'Please mark the todo reviewed.',
};

const ENTRIES: Record<RealAgent, string> = {
  'claude-agent-acp': join(repoRoot, 'node_modules/@zed-industries/claude-agent-acp/dist/index.js'),
  'gemini-cli': join(repoRoot, 'node_modules/@google/gemini-cli/bundle/gemini.js'),
};

/** The files an agent's turn starts from, in `workspace` (the replay seeds the same). */
export function seedWorkspace(agent: RealAgent, workspace: string): void {
  if (agent === 'claude-agent-acp') {
    const f = editOnDiskFiles(workspace);
    writeFileSync(f.notesPath, f.originalText);
  } else {
    const f = geminiScenarioFiles(workspace);
    mkdirSync(join(workspace, 'notes'), { recursive: true });
    writeFileSync(f.editPath, f.originalText);
  }
}

/** Only what differs from this process's environment (the agent inherits the rest): masked values stay few. */
export function envDelta(full: Record<string, string>): Record<string, string> {
  const delta: Record<string, string> = {};
  for (const [k, v] of Object.entries(full)) if (process.env[k] !== v) delta[k] = v;
  for (const k of Object.keys(process.env)) if (!(k in full)) delta[k] = '';
  return delta;
}

/**
 * A scripted session whose agent is the adapter script `entry`, run by this node with `env` (its
 * changes from this process's); `extra`: more of the editor's ports (e.g. `mcpServers`).
 */
export function adapterSession(
  workspace: string,
  name: string,
  entry: string,
  env: Record<string, string>,
  log: ProtocolLog,
  extra?: Partial<EditorPorts>,
): ScriptedSession {
  const s = scriptedSession(workspace, {}, { name, cwd: workspace, log, extra });
  s.session.updateAgent({ ...s.agent, command: process.execPath, args: [entry], env: envDelta(env) });
  return s;
}

/** Ends a real adapter's session, then the fake model it spoke to; waits for its process group to be gone (it writes its config folder until then). */
export async function endAdapterSession(s: ScriptedSession, fake: { close(): Promise<void> }): Promise<void> {
  await s.session.conversation.agentRuntime?.stop();
  s.session.dispose();
  await fake.close();
}

/** Answers every permission prompt of the running turn with its allow-once option, until the turn ends. */
export async function promptAllowing(s: ScriptedSession, text: string, ms = 60_000): Promise<void> {
  const conversation = s.session.conversation;
  conversation.prompt(text);
  const end = Date.now() + ms;
  const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 10));
  while (Date.now() < end && !conversation.internals.turns.busy && conversation.internals.queue.size > 0) await tick();
  while (Date.now() < end && conversation.internals.turns.busy) {
    const pending = (conversation.snapshot().entries as Entry[]).find(
      (e): e is ToolCallEntry => e.kind === 'tool_call' && e.permission?.state.kind === 'pending',
    );
    const option = pending?.permission?.options.find((o) => o.kind === 'allow_once') ?? pending?.permission?.options[0];
    if (pending?.permission && option) s.session.respondPermission(pending.permission.requestId, option.optionId);
    await tick();
  }
  await s.session.settled(conversation, ms);
}

export interface RealRecording {
  /** The transcript (JSON lines) of the conversation. */
  transcript: string;
  /** Its cards, with the workspace written `<cwd>`. */
  cards: unknown[];
  stderr: string;
}

/** Runs one real agent for one turn in `workspace` (scratch homes in `scratch`) and records it. */
export async function recordRealAgent(agent: RealAgent, workspace: string, scratch: string): Promise<RealRecording> {
  seedWorkspace(agent, workspace);
  const fake =
    agent === 'claude-agent-acp' ? await startFakeAnthropic(scenario('editOnDisk', workspace)) : await startFakeGemini(geminiScenario('editFile', workspace));
  const env = agent === 'claude-agent-acp' ? agentEnv(fake.url, scratch) : geminiAgentEnv(fake.url, scratch).env;
  const rec = recorder();
  const s = scriptedSession(workspace, {}, { name: agent, cwd: workspace, log: rec.log });
  s.session.updateAgent({ ...s.agent, args: agent === 'gemini-cli' ? [ENTRIES[agent], '--acp'] : [ENTRIES[agent]], env: envDelta(env) });
  try {
    await s.session.start();
    await promptAllowing(s, REAL_AGENT_PROMPTS[agent]);
    const cards = cardShapes(s.session.conversation.snapshot().entries as Entry[], workspace);
    const transcript = await rec.transcript({ agent, session: s.session.conversation.meta.sessionId }, Object.values(env));
    return { transcript, cards, stderr: rec.store.stderrTail(agent, 200).join('\n') };
  } finally {
    // Waits for the process group to be gone: it writes its config folder until then.
    await s.session.conversation.agentRuntime?.stop();
    s.session.dispose();
    rec.dispose();
    await fake.close();
  }
}

/** The prompts of a transcript, in order (the replay sends the same, so the user cards match too). */
function promptsOf(transcript: string): string[] {
  return parseTranscript(transcript)
    .messages.filter((m) => m.dir === 'out' && m.msg.method === 'session/prompt')
    .map((m) => (m.msg.params as { prompt: Array<{ text?: string }> }).prompt[0]?.text ?? '');
}

/**
 * Replays `transcriptPath` in a fresh folder; the cards (workspace as `<cwd>`) and the findings.
 * The sandbox's own cards proposing the recorded writes (allowed here) are not the agent's: they
 * come apart, as the paths proposed.
 */
export async function replayRecorded(
  agent: RealAgent,
  transcriptPath: string,
): Promise<{ cards: unknown[]; proposedWrites: string[]; findings: string[]; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), `tandem-replay-${agent}-`));
  const rec = recorder();
  const s = replaySession(dir, transcriptPath, { cwd: dir, log: rec.log });
  try {
    seedWorkspace(agent, dir);
    await s.session.start();
    for (const text of promptsOf(readFileSync(transcriptPath, 'utf8'))) await promptAllowing(s, text);
    rec.monitor.drain();
    const entries = s.session.conversation.snapshot().entries as Entry[];
    const proposal = (e: Entry): boolean => e.kind === 'tool_call' && e.toolCallId.startsWith(PROPOSED_WRITE_PREFIX);
    return {
      cards: cardShapes(
        entries.filter((e) => !proposal(e)),
        dir,
      ),
      proposedWrites: entries.filter(proposal).flatMap((e) => (e.kind === 'tool_call' ? e.locations.map((l) => l.path.split(dir).join('<cwd>')) : [])),
      findings: rec.monitor.allWarnings().map((w) => `${w.rule}: ${w.text}`),
      stderr: rec.store.stderrTail('Replay').join('\n'),
    };
  } finally {
    await s.session.conversation.agentRuntime?.stop();
    s.session.dispose();
    rec.dispose();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** Runs `record` in a fresh scratch folder (a `workspace` inside it), removed afterwards: the recording scripts' loop body. */
export async function inScratch<T>(prefix: string, record: (workspace: string, scratch: string) => Promise<T>): Promise<T> {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace);
  try {
    return await record(workspace, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** A recording script's end: exit 0, or print the error and exit 1. */
export function runScript(main: () => Promise<void>): void {
  void main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
