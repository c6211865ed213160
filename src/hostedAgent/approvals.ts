/**
 * AI SDK tool approvals as ACP permission prompts. The server stops its stream with a
 * `tool-approval-request`; the user answers through `session/request_permission`; the answer goes
 * back the AI SDK's way: the tool part becomes `approval-responded` with `{ id, approved, reason }`
 * and the history is sent again at once (as `useChat`'s `sendAutomaticallyWhen` does), so the
 * server runs the tool, or tells the model it was denied, in the same turn.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { serverToolMeta, statusOf, toolUpdateFor, kindFor, titleFor } from './toolCards';
import { toolNameOf, type ToolPart } from './types';

const ALLOW_ONCE = 'allow-once';
const ALLOW_ALWAYS = 'allow-always';
const REJECT_ONCE = 'reject-once';

export interface ApprovalAsk {
  part: ToolPart;
  acpId: string;
}

export interface Approver {
  /** Sends `session/request_permission` and resolves with the client's answer. */
  request(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
  /** Sends a `session/update`. */
  update(update: acp.SessionUpdate): Promise<void>;
}

export function permissionRequest(sessionId: string, ask: ApprovalAsk): acp.RequestPermissionRequest {
  const name = toolNameOf(ask.part);
  return {
    sessionId,
    toolCall: {
      toolCallId: ask.acpId,
      title: titleFor(name, ask.part.input, ask.part.title),
      kind: kindFor(name),
      status: statusOf(ask.part),
      rawInput: ask.part.input,
      _meta: serverToolMeta(ask.part),
    },
    options: [
      { optionId: ALLOW_ONCE, name: 'Allow', kind: 'allow_once' },
      { optionId: ALLOW_ALWAYS, name: `Always allow ${name} in this conversation`, kind: 'allow_always' },
      { optionId: REJECT_ONCE, name: 'Reject', kind: 'reject_once' },
    ],
  };
}

/**
 * Asks for every pending approval in order. Returns false when the user cancelled a prompt (the
 * turn then ends as cancelled, the calls stay unanswered until the next prompt denies them).
 */
export async function answerApprovals(sessionId: string, asks: readonly ApprovalAsk[], alwaysAllow: string[], approver: Approver): Promise<boolean> {
  for (const ask of asks) {
    const name = toolNameOf(ask.part);
    let approved: boolean;
    if (alwaysAllow.includes(name)) {
      approved = true;
    } else {
      const answer = await approver.request(permissionRequest(sessionId, ask));
      if (answer.outcome.outcome !== 'selected') return false;
      const option = answer.outcome.optionId;
      approved = option === ALLOW_ONCE || option === ALLOW_ALWAYS;
      if (option === ALLOW_ALWAYS && !alwaysAllow.includes(name)) alwaysAllow.push(name);
    }
    const id = ask.part.approval?.id ?? '';
    ask.part.state = 'approval-responded';
    ask.part.approval = approved ? { id, approved: true } : { id, approved: false, reason: 'The user denied this tool call.' };
    await approver.update(toolUpdateFor(ask.acpId, ask.part));
  }
  return true;
}
