/**
 * A server-side tool part as an ACP tool card: `tool_call` when it appears, `tool_call_update`s as
 * it runs. Every card carries `_meta.tandem.ranOn = "server"` so a client can say where it ran (no
 * follow-along, no local review) and `_meta.tandem.toolName` with the server's own name.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { kindFor, titleFor } from './toolKinds';
import { toolNameOf, type ToolPart, type ToolState } from './types';

/** What goes in `_meta` of every tool call and tool call update the bridge sends. */
export function serverToolMeta(part: ToolPart): Record<string, unknown> {
  return { tandem: { ranOn: 'server', toolName: toolNameOf(part) } };
}

export function statusOf(part: ToolPart): acp.ToolCallStatus {
  const state: ToolState = part.state;
  switch (state) {
    case 'input-streaming':
    case 'approval-requested':
      return 'pending';
    case 'input-available':
      return 'in_progress';
    case 'approval-responded':
      return part.approval?.approved === false ? 'failed' : 'in_progress';
    case 'output-available':
      return 'completed';
    case 'output-error':
    case 'output-denied':
      return 'failed';
  }
}

/** Cap on the text of one card (the raw output keeps everything). */
const MAX_CONTENT_CHARS = 200_000;

function capped(text: string): string {
  return text.length > MAX_CONTENT_CHARS ? `${text.slice(0, MAX_CONTENT_CHARS)}\n… (${text.length - MAX_CONTENT_CHARS} more characters in the raw output)` : text;
}

/** A tool's output as card text: strings as they are, anything else as a JSON block. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return capped(output);
  if (output === undefined) return '';
  let json: string;
  try {
    json = JSON.stringify(output, null, 2) ?? String(output);
  } catch {
    json = String(output);
  }
  return capped('```json\n' + json + '\n```');
}

function textContent(text: string): acp.ToolCallContent[] {
  return [{ type: 'content', content: { type: 'text', text } }];
}

/** The card content a state shows, or undefined to leave what the card has (live output). */
function contentOf(part: ToolPart): acp.ToolCallContent[] | undefined {
  switch (part.state) {
    case 'output-available':
      return textContent(outputText(part.output));
    case 'output-error':
      return textContent(part.errorText && part.errorText !== '' ? part.errorText : 'The tool failed on the server.');
    case 'output-denied':
      return textContent(part.approval?.reason ? `Not run: ${part.approval.reason}` : 'Not run: the call was denied.');
    case 'approval-responded':
      return part.approval?.approved === false ? textContent(part.approval.reason ? `Not run: ${part.approval.reason}` : 'Not run: you denied it.') : undefined;
    case 'input-streaming':
    case 'input-available':
    case 'approval-requested':
      return undefined;
  }
}

/** The fields a card shows for the part as it is now. */
function cardFields(part: ToolPart): Omit<acp.ToolCall, 'toolCallId' | 'title'> & { title: string } {
  const name = toolNameOf(part);
  const fields: Omit<acp.ToolCall, 'toolCallId' | 'title'> & { title: string } = {
    title: titleFor(name, part.input, part.title),
    kind: kindFor(name),
    status: statusOf(part),
    _meta: serverToolMeta(part),
  };
  if (part.input !== undefined) fields.rawInput = part.input;
  const content = contentOf(part);
  if (content) fields.content = content;
  if (part.state === 'output-available') fields.rawOutput = part.output;
  if (part.state === 'output-error') fields.rawOutput = { error: part.errorText ?? '' };
  return fields;
}

/** A new card for the part (also used to replay a finished call in its final state). */
export function toolCallFor(acpId: string, part: ToolPart): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call', toolCallId: acpId, ...cardFields(part) };
}

/** The card brought up to date with the part (title and kind too: the input may have just arrived). */
export function toolUpdateFor(acpId: string, part: ToolPart): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId: acpId, ...cardFields(part) };
}

/** Live output while the tool runs (`tool.output`, preliminary AI SDK outputs). */
export function progressFor(acpId: string, part: ToolPart, live: string): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId: acpId, status: 'in_progress', content: textContent(capped(live)), _meta: serverToolMeta(part) };
}
