/**
 * What the demo shows for a prompt. Keywords pick one part (so each feature can be looked at on its
 * own); anything else runs the full tour, whose plan entries progress as its parts run.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { editStep } from './editStep';
import type { EditResult } from './editStep';
import { DEMO_DIR } from './fileAccess';
import { kindsStep } from './kindsStep';
import { terminalStep } from './terminalStep';
import { assertNever } from '../protocol/guards';
import type { Turn } from './turn';

export type Show = 'help' | 'plan' | 'diff' | 'terminal' | 'tools' | 'markdown' | 'tour';

const KEYWORDS: Array<{ show: Exclude<Show, 'tour'>; words: string[]; what: string }> = [
  { show: 'help', words: ['help'], what: 'this list' },
  { show: 'plan', words: ['plan'], what: 'a plan whose entries progress' },
  { show: 'diff', words: ['diff', 'edit'], what: `a permission prompt, then an edit of \`${DEMO_DIR}/hello.md\` with a diff` },
  { show: 'terminal', words: ['terminal'], what: 'two commands running in embedded terminals' },
  { show: 'tools', words: ['tools', 'kinds'], what: 'one tool call of each kind' },
  { show: 'markdown', words: ['markdown'], what: 'streamed markdown only' },
];

/** The keywords as slash commands, announced with available_commands_update. */
export function demoCommands(): acp.AvailableCommand[] {
  return [
    ...KEYWORDS.map((k) => ({ name: k.words[0], description: k.what[0].toUpperCase() + k.what.slice(1).replace(/`/g, '') })),
    { name: 'tour', description: 'The full tour: every part of the panel' },
  ];
}

export function chooseShow(promptText: string): Show {
  const words = new Set(promptText.toLowerCase().match(/[a-z]+/g) ?? []);
  return KEYWORDS.find((k) => k.words.some((w) => words.has(w)))?.show ?? 'tour';
}

export function promptTextOf(prompt: acp.ContentBlock[]): string {
  return prompt
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : ''))
    .join(' ')
    .trim();
}

function helpText(): string {
  const rows = KEYWORDS.map((k) => `- **${k.words.join('** / **')}** — ${k.what}`).join('\n');
  return `## Tandem Demo — keywords\n\nPut one of these words in your message:\n\n${rows}\n\nAnything else runs the **full tour**.\n`;
}

function introText(promptText: string): string {
  const quoted = promptText.slice(0, 200).replace(/\n/g, ' ');
  return [
    '## Welcome to the Tandem tour',
    '',
    `You wrote: *${quoted || '(nothing)'}* — I am a scripted agent, so instead of answering I will show you every part of the panel.`,
    '',
    'On this tour:',
    '',
    '1. **Markdown** streamed in small chunks, like this text',
    '2. **Tool calls** of every kind, with titles that sharpen as they run',
    '3. An **edit** with a diff, after asking your permission',
    '4. Two **commands** in embedded terminals',
    '',
    'Here is some code, to show a code block:',
    '',
    '```ts',
    "import * as acp from '@agentclientprotocol/sdk';",
    '',
    "const agent = acp.agent({ name: 'tandem-demo' });",
    '```',
    '',
    'The protocol behind all this is the [Agent Client Protocol](https://agentclientprotocol.com).',
    '',
  ].join('\n');
}

class PlanTracker {
  private readonly entries: acp.PlanEntry[];
  constructor(
    private readonly turn: Turn,
    items: Array<[string, acp.PlanEntryPriority]>,
  ) {
    this.entries = items.map(([content, priority]) => ({ content, priority, status: 'pending' }));
  }
  async set(index: number, status: acp.PlanEntryStatus): Promise<void> {
    this.entries[index] = { ...this.entries[index], status };
    // Each plan update carries the whole list: clients replace the previous plan.
    await this.turn.update({ sessionUpdate: 'plan', entries: this.entries.map((e) => ({ ...e })) });
  }
  async run(index: number, part: () => Promise<void>): Promise<void> {
    await this.set(index, 'in_progress');
    await part();
    await this.set(index, 'completed');
  }
}

function editSummary(result: EditResult): string {
  switch (result) {
    case 'written':
      return `- \`${DEMO_DIR}/hello.md\` was written — the diff shows what changed.`;
    case 'rejected':
      return '- You **rejected** the edit, so nothing was written. That is fine too.';
    case 'failed':
      return '- The edit could not be written; the card says why.';
    default:
      return assertNever(result);
  }
}

async function planOnly(turn: Turn): Promise<void> {
  await turn.streamMarkdown('Let me think about how to plan this…', 'agent_thought_chunk');
  const plan = new PlanTracker(turn, [
    ['Understand the request', 'high'],
    ['Sketch the steps', 'medium'],
    ['Carry them out one by one', 'medium'],
    ['Report back', 'low'],
  ]);
  await plan.set(0, 'pending');
  for (let i = 0; i < 4; i++) await plan.run(i, () => turn.sleep(500));
  await turn.streamMarkdown(
    'That was a **plan**: each update replaces the whole checklist, and entries move from *pending* to *in progress* to *completed*.\n',
  );
}

async function fullTour(turn: Turn): Promise<void> {
  await turn.streamMarkdown(
    `The user wrote “${turn.promptText.slice(0, 80)}”. No keyword there, so: the full tour. First a plan, then one part after another.`,
    'agent_thought_chunk',
  );
  const plan = new PlanTracker(turn, [
    ['Say hello in markdown', 'medium'],
    ['Show a tool call of every kind', 'high'],
    [`Edit ${DEMO_DIR}/hello.md (asks your permission)`, 'high'],
    ['Run commands in a terminal', 'medium'],
    ['Wrap up', 'low'],
  ]);
  await plan.set(0, 'pending');
  await plan.run(0, () => turn.streamMarkdown(introText(turn.promptText)));
  await plan.run(1, () => kindsStep(turn));
  let edit: EditResult = 'written';
  await plan.run(2, async () => {
    edit = await editStep(turn);
  });
  await plan.run(3, () => terminalStep(turn));
  await plan.run(4, () =>
    turn.streamMarkdown(['', '### That was the tour', '', editSummary(edit), '- Type **help** to see how to replay a single part.', ''].join('\n')),
  );
}

export async function runShow(turn: Turn, show: Show): Promise<void> {
  switch (show) {
    case 'help':
      return turn.streamMarkdown(helpText());
    case 'plan':
      return planOnly(turn);
    case 'diff': {
      await turn.streamMarkdown(`I will propose a change to \`${DEMO_DIR}/hello.md\` and ask first.\n`);
      const result = await editStep(turn);
      return turn.streamMarkdown(`\n${editSummary(result)}\n`);
    }
    case 'terminal':
      await turn.streamMarkdown('Running two harmless commands in terminals:\n');
      await terminalStep(turn);
      return turn.streamMarkdown('\nBoth commands finished; their output stays in the cards.\n');
    case 'tools':
      await turn.streamMarkdown('One tool call of each kind coming up:\n');
      return kindsStep(turn);
    case 'markdown':
      return turn.streamMarkdown(introText(turn.promptText));
    case 'tour':
      return fullTour(turn);
    default:
      return assertNever(show);
  }
}
