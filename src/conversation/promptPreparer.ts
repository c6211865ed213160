import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { PathStyle } from '../context/contextUri';
import { specToMention, specView } from '../context/mentionSpecs';
import type { ContextSources } from '../context/mentionSpecs';
import type { Mention } from '../context/mentions';
import { buildPrompt } from '../context/promptBlocks';
import type { MentionReader } from '../context/promptBlocks';
import type { PromptLimits } from '../context/promptOutcome';
import type { MentionChip, MentionSpec, MentionView } from '../protocol/messages';
import { errorMessage } from '../util/errors';
import type { Draft } from '../protocol/draft';

/** What a conversation needs to turn the composer's chips into prompt content. */
export interface PromptContext {
  /** Reads the files mentioned: the editor's text, and only where the user allows access. */
  reader: MentionReader;
  sources: ContextSources;
  /** Workspace folders: notes and headings show paths relative to them. */
  workspaceRoots(): string[];
  pathStyle: PathStyle;
  limits?: Partial<PromptLimits>;
  /** Points a chip's paths where the conversation works (a worktree's copy of a workspace file). */
  rebase?: (spec: MentionSpec) => MentionSpec;
}

/** A prompt ready for `session/prompt`, and what the thread shows for it. */
export interface PreparedPrompt {
  blocks: acp.ContentBlock[];
  /** The chips as sent (in the user's entry). */
  mentions: MentionView[];
  /** What became of context that could not go whole ("src/big.ts was cut to its first 200 KB"). */
  notes: string[];
}

/** Sources for a conversation without an editor: no diagnostics, no terminals, no repository. */
export const NO_CONTEXT_SOURCES: ContextSources = {
  problems: () => [],
  terminalOutput: () => undefined,
  gitDiff: async () => ({ diff: '' }),
};

/**
 * The `prompt` of `session/prompt` for the user's text and chips, read now (the content is what the
 * user sees at the moment the prompt goes, not when the chip was made), within what the agent says
 * it accepts. Without chips it is the text alone.
 */
export async function preparePrompt(
  text: string,
  chips: readonly MentionChip[],
  capabilities: acp.PromptCapabilities | null | undefined,
  context: PromptContext | undefined,
): Promise<PreparedPrompt> {
  if (chips.length === 0 || !context) return { blocks: [{ type: 'text', text }], mentions: [], notes: [] };
  const mentions: Mention[] = [];
  const notes: string[] = [];
  for (const chip of chips) {
    try {
      mentions.push(await specToMention(context.rebase ? context.rebase(chip.spec) : chip.spec, context.sources));
    } catch (err) {
      // A failing source (git missing, say) costs this chip only; the prompt still goes.
      notes.push(l10n.t('{0} was not sent: {1}', chip.view.label, errorMessage(err)));
    }
  }
  const built = await buildPrompt(
    { text, mentions },
    { capabilities, reader: context.reader, limits: context.limits, pathStyle: context.pathStyle, workspaceRoots: context.workspaceRoots() },
  );
  for (const outcome of built.outcomes) if (outcome.note) notes.push(outcome.note);
  return { blocks: built.blocks, mentions: built.outcomes.map((o) => toView(o.view)), notes };
}

/** The context module's view as the protocol's (the same shape; copied so no extra field leaks). */
function toView(view: MentionView): MentionView {
  const out: Draft<MentionView> = { kind: view.kind, label: view.label, icon: view.icon };
  if (view.detail !== undefined) out.detail = view.detail;
  if (view.uri !== undefined) out.uri = view.uri;
  if (view.range !== undefined) out.range = { ...view.range };
  return out;
}

/** Chips for the composer's specs: how each is shown (paths relative to the workspace). */
export function chipsFor(specs: readonly MentionSpec[], context: Pick<PromptContext, 'pathStyle' | 'workspaceRoots'>): MentionChip[] {
  const display = { pathStyle: context.pathStyle, workspaceRoots: context.workspaceRoots() };
  return specs.map((spec) => ({ spec, view: toView(specView(spec, display)) }));
}
