/**
 * The edit part of the tour: proposes a change to `tandem-demo/hello.md` as a live diff, asks the
 * user's permission (allow once / allow always / reject), and only then writes the file — through
 * the client's `fs/write_text_file` when advertised.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import { demoPath, displayPath, readText, writeText } from './fileAccess';
import { Cancelled, errorText, textContent } from './turn';
import type { Turn } from './turn';

const OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow demo edits', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

/** The next version of hello.md: a visit counter bumps on every run so each run shows a real diff. */
export function nextHello(oldText: string | undefined, promptText: string): { text: string; changedLine: number } {
  const visits = Number(/^Visits: (\d+)$/m.exec(oldText ?? '')?.[1] ?? '0') + 1;
  const quote = promptText.trim().split('\n')[0].slice(0, 120) || '(empty prompt)';
  const lines = [
    '# Hello from Tandem Demo',
    '',
    'This file was written by the demo agent to show a diff and a permission prompt.',
    '',
    `Visits: ${visits}`,
    `Last prompt: ${quote}`,
    '',
    '- [x] streamed markdown',
    '- [x] tool calls of every kind',
    `- [${visits > 1 ? 'x' : ' '}] came back for a second run`,
    '',
  ];
  return { text: lines.join('\n'), changedLine: 5 };
}

export type EditResult = 'written' | 'rejected' | 'failed';

export async function editStep(turn: Turn): Promise<EditResult> {
  const path = demoPath(turn, 'hello.md');
  const shown = displayPath(turn, path);
  const toolCallId = await turn.startTool({ toolCallId: turn.newToolId('edit'), title: 'Edit', kind: 'edit', status: 'pending', rawInput: { path } });
  await turn.sleep(250);
  const { text: oldText } = await readText(turn, path);
  const { text: newText, changedLine } = nextHello(oldText, turn.promptText);
  const diff: acp.ToolCallContent = { type: 'diff', path, oldText: oldText ?? null, newText };
  const title = oldText === undefined ? `Create ${shown}` : `Edit ${shown}`;
  const locations = [{ path, line: changedLine }];
  await turn.updateTool(toolCallId, { title, locations, content: [diff], rawInput: { path, newText } });
  await turn.sleep(300);

  if (!turn.session.alwaysAllowEdits) {
    const request: acp.RequestPermissionRequest = {
      sessionId: turn.session.id,
      toolCall: { toolCallId, title, kind: 'edit', status: 'pending', content: [diff], locations },
      options: OPTIONS,
    };
    const asked = turn.client.request(methods.client.session.requestPermission, request, { cancellationSignal: turn.cancellationSignal });
    const res = await turn.race(asked);
    const outcome = res.outcome;
    // The client answers `cancelled` when the user stopped the turn while the prompt was open.
    if (outcome.outcome === 'cancelled') throw new Cancelled();
    const chosen = OPTIONS.find((o) => o.optionId === outcome.optionId);
    if (!chosen || chosen.kind === 'reject_once' || chosen.kind === 'reject_always') {
      await turn.finishTool(toolCallId, 'failed', {
        content: [diff, textContent(`Edit skipped: you rejected it, so \`${shown}\` is unchanged.`)],
        rawOutput: { rejected: true, optionId: outcome.optionId },
      });
      return 'rejected';
    }
    if (chosen.kind === 'allow_always') turn.session.alwaysAllowEdits = true;
  }

  await turn.updateTool(toolCallId, { status: 'in_progress' });
  await turn.sleep(200);
  let via: 'client' | 'disk';
  try {
    via = await writeText(turn, path, newText);
  } catch (err) {
    turn.check();
    await turn.finishTool(toolCallId, 'failed', { content: [diff, textContent(`The write failed: ${errorText(err)}`)] });
    return 'failed';
  }
  await turn.finishTool(toolCallId, 'completed', {
    content: [
      diff,
      textContent(
        via === 'client' ? 'Written through the editor (`fs/write_text_file`).' : 'Written on disk (the client does not offer `fs/write_text_file`).',
      ),
    ],
    rawOutput: { path, bytes: Buffer.byteLength(newText), via },
  });
  return 'written';
}
