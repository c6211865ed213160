import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { ConversationManager } from '../../conversation/conversationManager';
import { servedBy, type HostMessage, type ServedBy, type WebviewMessage, type WebviewMessageOf } from '../../protocol/messages';
import type { AgentSettings } from '../agents/agentSettings';
import { parseTandemUri } from '../../context/contextUri';
import { copyCode, insertCodeAtCursor, openCodeInNewFile } from '../editor/codeBlockActions';
import type { DiffEditor } from '../editor/diffEditor';
import type { HostCommands } from './hostCommands';
import type { LinkOpener } from '../editor/linkOpener';
import type { MarkdownExporter } from '../editor/markdownExport';
import type { SubagentDocuments } from '../editor/subagentDocuments';
import type { MentionSource } from '../mentions/mentionSource';
import type { OutputLog } from '../core/outputLog';
import type { TerminalMirror } from '../terminals/terminalMirror';

/** Panel commands the editor side serves (`by: 'editor'` in src/protocol/webviewMessages.ts). */
export type EditorCommand = Extract<WebviewMessage, { type: ServedBy<'editor'> }>;

/** The editor's pieces the handlers use. */
export interface EditorCommandContext {
  manager: ConversationManager;
  settings: AgentSettings;
  commands: HostCommands;
  links: LinkOpener;
  diffs: DiffEditor;
  mirror: TerminalMirror;
  mentions: MentionSource;
  log: OutputLog;
  /** Export as Markdown, Copy as Markdown. */
  markdown: MarkdownExporter;
  /** A subagent's history in its own tab. */
  subagents: SubagentDocuments;
  addPreset(presetId: string): Promise<void>;
  /** Posts an answer to the panel (picker suggestions, chips for a drop). */
  reply(message: HostMessage): void;
}

type Handler<K extends ServedBy<'editor'>> = (message: WebviewMessageOf<K>, ctx: EditorCommandContext) => unknown;

/** One handler per editor command; a command declared `by: 'editor'` without one fails to compile. */
const HANDLERS: { [K in ServedBy<'editor'>]: Handler<K> } = {
  showHistory: (_m, { commands }) => commands.showHistory(),
  signOut: (m, { commands }) => commands.signOut(m.conversationId),
  newConversation: (_m, { commands }) => commands.newConversation(),
  newConversationInWorktree: (_m, { commands }) => commands.newConversationInWorktree(),
  worktreeOpen: (m, { commands }) => commands.openWorktree(m.conversationId),
  selectAgent: async (m, { settings, manager }) => {
    if (settings.find(m.name)) await manager.selectAgent(m.name);
  },
  addPreset: (m, ctx) => ctx.addPreset(m.presetId),
  openLocation: (m, { links }) => links.openLocation(m.path, m.line),
  openDiff: async (m, { manager, diffs }) => {
    const diff = manager.active?.findDiff(m.entryId, m.index);
    if (diff) await diffs.open(diff);
  },
  openTerminal: (m, { manager, mirror }) => {
    const active = manager.active;
    if (active) mirror.show(active.terminalFeed, m.terminalId);
  },
  openLink: (m, { links }) => links.openLink(m.href),
  insertCode: (m) => insertCodeAtCursor(m.code),
  newCodeFile: (m) => openCodeInNewFile(m.code, m.language),
  copyCode: (m) => copyCode(m.code),
  showLog: (_m, { log }) => log.showProtocol(),
  openAgentSettings: () => vscode.commands.executeCommand('workbench.action.openSettings', 'tandem.agents'),
  reviewOpenDiff: async (m, { manager, diffs }) => {
    const conversation = manager.get(m.conversationId);
    if (!conversation) return;
    const before = await conversation.baselineText(m.path).catch(() => undefined);
    const branch = conversation.meta.worktree?.branch;
    await diffs.openAgainstFile(
      m.path,
      before,
      branch ? l10n.t('changes by {0} in the worktree {1}', conversation.agentName, branch) : l10n.t('changes by {0}', conversation.agentName),
    );
  },
  manageRules: (m, { commands }) => commands.manageRules(m.ruleId),
  copyMessageMarkdown: async (m, { markdown, reply }) => {
    const conversationId = m.conversationId;
    if (conversationId !== undefined && (await markdown.copyEntry(conversationId, m.entryId)))
      reply({ type: 'messageCopied', conversationId, entryId: m.entryId });
  },
  openSubagent: (m, { manager, subagents }) => subagents.open(manager.get(m.conversationId), m.entryId),
  checkAgent: (_m, { manager }) => vscode.commands.executeCommand('tandem.checkAgent', manager.active?.agentName),
  mentionQuery: async (m, { mentions, log, reply }) => {
    const items = await mentions.query(m.query.slice(0, 200)).catch((err: unknown) => {
      log.warn(`The @ picker's suggestions failed: ${String(err)}`);
      return [];
    });
    reply({ type: 'mentionResults', requestId: m.requestId, items });
  },
  dropUris: async (m, { manager, mentions, reply }) => {
    const conversation = manager.get(m.conversationId);
    const chips = await mentions.chipsForUris(m.uris);
    if (conversation && chips.length > 0) reply({ type: 'mentionsAdded', conversationId: conversation.id, chips });
  },
  openMention: (m, { mentions, links, commands }) => {
    // A handed-over conversation's chip opens that conversation (from the history if it is closed).
    const target = parseTandemUri(m.uri);
    if (target?.kind === 'conversation') return commands.openAt({ conversationId: target.conversationId, entryId: '', query: '' });
    // A chip's line comes with it when its URI has no `#L…` range of its own.
    return mentions.open(m.uri, (uri) => links.openLink(m.line !== undefined && !uri.includes('#') ? `${uri}#L${m.line}` : uri));
  },
};

export function isEditorCommand(message: WebviewMessage): message is EditorCommand {
  return servedBy(message.type) === 'editor';
}

export async function runEditorCommand(message: EditorCommand, ctx: EditorCommandContext): Promise<void> {
  const handler = HANDLERS[message.type] as Handler<EditorCommand['type']>;
  await handler(message as WebviewMessageOf<EditorCommand['type']>, ctx);
}
