/**
 * The tool-kind parade: one tool call per ACP kind not covered by the edit and terminal parts
 * (think, read, search, fetch, move, delete, switch_mode, other). Each starts with a vague title
 * that sharpens once the "work" is known, carries real workspace locations where it touches files,
 * and ends completed. Move and delete only touch a scratch file the demo makes itself.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { demoPath, displayPath, pickReadTarget, readText, workspaceFiles } from './fileAccess';
import { errorText, textContent } from './turn';
import type { ToolFields, Turn } from './turn';

type Kind = NonNullable<acp.ToolCall['kind']>;

/**
 * Runs one scripted tool call: announced pending with a vague title, then running with the sharp
 * title and its locations once the work is known, then completed with content and raw output.
 */
async function tool(turn: Turn, kind: Kind, vague: string, work: () => Promise<ToolFields>): Promise<void> {
  const toolCallId = await turn.startTool({ toolCallId: turn.newToolId(kind), title: vague, kind, status: 'pending' });
  await turn.sleep(250);
  let fields: ToolFields;
  try {
    fields = await work();
  } catch (err) {
    // A client error (say, a file it refuses to read) fails this card, not the whole tour.
    turn.check();
    await turn.finishTool(toolCallId, 'failed', { content: [textContent(`Failed: ${errorText(err)}`)] });
    return;
  }
  const { content, rawOutput, ...sharpened } = fields;
  await turn.updateTool(toolCallId, { ...sharpened, status: 'in_progress' });
  await turn.sleep(350);
  await turn.finishTool(toolCallId, 'completed', { content, rawOutput });
}

function fence(text: string, path: string): string {
  const lang = extname(path).slice(1) || 'text';
  return `\`\`\`${lang}\n${text.replace(/```/g, '`\u200b``')}\n\`\`\``;
}

async function readPart(turn: Turn): Promise<void> {
  await tool(turn, 'read', 'Read', async () => {
    const target = pickReadTarget(turn);
    if (!target) return { title: 'Read (the workspace has no files)', content: [textContent('Nothing to read at the top of the workspace.')] };
    const { text, via } = await readText(turn, target, 1, 15);
    return {
      title: `Read ${displayPath(turn, target)} (lines 1–15)`,
      locations: [{ path: target, line: 1 }],
      content: [textContent(fence(text ?? '', target))],
      rawInput: { path: target, line: 1, limit: 15 },
      rawOutput: { via, chars: text?.length ?? 0 },
    };
  });
}

async function searchPart(turn: Turn): Promise<void> {
  const needle = 'tandem';
  await tool(turn, 'search', 'Search', async () => {
    const hits: acp.ToolCallLocation[] = [];
    for (const file of workspaceFiles(turn, 30)) {
      if (statSync(file).size > 200_000) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((l, i) => {
          if (hits.length < 5 && l.toLowerCase().includes(needle)) hits.push({ path: file, line: i + 1 });
        });
    }
    const list = hits.map((h) => `- \`${displayPath(turn, h.path)}:${h.line}\``).join('\n');
    return {
      title: `Search “${needle}” — ${hits.length} match${hits.length === 1 ? '' : 'es'}`,
      locations: hits,
      content: [textContent(hits.length > 0 ? list : `No top-level file mentions “${needle}” (yet).`)],
      rawInput: { pattern: needle, caseInsensitive: true },
    };
  });
}

async function movePart(turn: Turn): Promise<void> {
  const from = demoPath(turn, 'scratch.txt');
  const to = demoPath(turn, 'archive/scratch.txt');
  await tool(turn, 'move', 'Move a file', async () => {
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(from, 'A scratch file the demo moves and then deletes.\n');
    renameSync(from, to);
    return { title: `Move ${displayPath(turn, from)} → ${displayPath(turn, to)}`, locations: [{ path: to, line: 1 }], rawInput: { from, to } };
  });
}

async function deletePart(turn: Turn): Promise<void> {
  const target = demoPath(turn, 'archive/scratch.txt');
  await tool(turn, 'delete', 'Delete a file', async () => {
    const existed = existsSync(target);
    rmSync(target, { force: true });
    try {
      rmdirSync(dirname(target)); // only when empty: never removes anything the user put there
    } catch {
      // Not empty or already gone: leave it.
    }
    return { title: `Delete ${displayPath(turn, target)}`, locations: [{ path: target }], rawInput: { path: target }, rawOutput: { existed } };
  });
}

export async function kindsStep(turn: Turn): Promise<void> {
  await tool(turn, 'think', 'Think', async () => ({
    title: 'Think about what to show next',
    content: [textContent('A *think* card: the agent reasons without touching anything. Next come reads, searches and file moves.')],
  }));
  await readPart(turn);
  await searchPart(turn);
  await tool(turn, 'fetch', 'Fetch', async () => ({
    title: 'Fetch https://agentclientprotocol.com (simulated)',
    content: [
      textContent(
        'The demo works offline, so nothing was downloaded. A real agent shows what it fetched from [agentclientprotocol.com](https://agentclientprotocol.com) here.',
      ),
    ],
    rawInput: { url: 'https://agentclientprotocol.com' },
  }));
  await movePart(turn);
  await deletePart(turn);
  await tool(turn, 'switch_mode', 'Switch mode', async () => ({
    title: 'Switch to “Code” mode (simulated)',
    content: [textContent('Agents with several modes (ask, architect, code) report a switch like this.')],
    rawInput: { modeId: 'code' },
  }));
  await tool(turn, 'other', 'Tool', async () => ({
    title: 'Tally the tour so far',
    content: [textContent('An *other* card, for tools that fit no kind. Its raw input and output are in the details.')],
    rawInput: { tally: ['think', 'read', 'search', 'fetch', 'move', 'delete', 'switch_mode', 'other'] },
    rawOutput: { kindsShown: 8 },
  }));
}
