import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { PermissionDesk } from './permissionDesk';
import type { Thread } from '../thread/thread';

/** What a call of the `tandem` server is about to do that needs the user's yes. */
export type ConsentSubject =
  | { kind: 'edit'; tool: 'edit_file' | 'write_file'; path: string; shownPath: string; before: string | undefined; after: string }
  | { kind: 'execute'; tool: 'run_in_terminal'; command: string };

/** The user (or a rule) said no: the tool's error result tells the model, and nothing happened. */
export class ConsentRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConsentRefusedError';
  }
}

const ALLOW = 'allow';
const ALLOW_SESSION = 'allow_session';
const REJECT = 'reject';

/**
 * The permission step of the `tandem` server's edits and commands, on the call's card, through the
 * conversation's permission desk — so saved rules answer it (path globs for edits, command prefixes
 * for commands, the tool name `mcp__tandem__<tool>`) and it looks like any other prompt.
 *
 * No second prompt for one call: when the agent itself already asked about this very call on its
 * card (Claude Code asks before an MCP tool runs) and the user allowed it, that answer stands. When
 * `tandem.reviewEdits` is "before", an edit is asked about by the review (as every client write is)
 * and not here. "Allow for this conversation" is remembered by this object only, which lives as long
 * as the session: edits of any file, or that exact command line.
 */
export class EditorToolConsent {
  private editsAllowed = false;
  private readonly commandsAllowed = new Set<string>();

  constructor(
    private readonly permissions: Pick<PermissionDesk, 'request'>,
    private readonly thread: Pick<Thread, 'findToolCall'>,
    private readonly reviewEdits: () => 'after' | 'before',
  ) {}

  /** Resolves when allowed; rejects with `ConsentRefusedError` when refused or cancelled. */
  async ask(cardId: string | undefined, subject: ConsentSubject, signal: AbortSignal): Promise<void> {
    if (subject.kind === 'edit' && (this.editsAllowed || this.reviewEdits() === 'before')) return;
    if (subject.kind === 'execute' && this.commandsAllowed.has(subject.command)) return;
    if (cardId !== undefined && this.agentAllowed(cardId)) return;
    const params: acp.RequestPermissionRequest = {
      sessionId: '',
      toolCall: { toolCallId: cardId ?? `tandem-mcp-consent-${Date.now().toString(36)}`, ...toolCallOf(subject) },
      options: [
        { optionId: ALLOW, name: l10n.t('Allow'), kind: 'allow_once' },
        {
          optionId: ALLOW_SESSION,
          name: subject.kind === 'edit' ? l10n.t('Allow edits for this conversation') : l10n.t('Allow this command for this conversation'),
          kind: 'allow_always',
        },
        { optionId: REJECT, name: l10n.t('Reject'), kind: 'reject_once' },
      ],
    };
    const answer = await this.permissions.request(params, signal);
    const chosen = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : undefined;
    if (chosen === ALLOW_SESSION) {
      if (subject.kind === 'edit') this.editsAllowed = true;
      else this.commandsAllowed.add(subject.command);
    }
    if (chosen === ALLOW || chosen === ALLOW_SESSION) return;
    throw new ConsentRefusedError(
      subject.kind === 'edit'
        ? `The user did not allow this change to ${subject.shownPath}; the file was not changed. Ask before trying again, or propose a different change.`
        : `The user did not allow running \`${subject.command}\`; nothing was run. Ask before trying again.`,
    );
  }

  /** The agent's own prompt on this card was answered with one of its allow options. */
  private agentAllowed(cardId: string): boolean {
    const permission = this.thread.findToolCall(cardId)?.permission;
    if (permission?.state.kind !== 'selected') return false;
    const optionId = permission.state.optionId;
    const option = permission.options.find((o) => o.optionId === optionId);
    return option?.kind === 'allow_once' || option?.kind === 'allow_always';
  }
}

function toolCallOf(subject: ConsentSubject): Record<string, unknown> {
  const toolName = `mcp__tandem__${subject.tool}`;
  if (subject.kind === 'edit') {
    return {
      title: l10n.t('Edit {0}', subject.shownPath),
      kind: 'edit',
      rawInput: { path: subject.path },
      locations: [{ path: subject.path }],
      content: [{ type: 'diff', path: subject.path, oldText: subject.before ?? null, newText: subject.after }],
      _meta: { claudeCode: { toolName } },
    };
  }
  return { title: subject.command, kind: 'execute', rawInput: { command: subject.command }, _meta: { claudeCode: { toolName } } };
}
