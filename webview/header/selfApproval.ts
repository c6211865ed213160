/**
 * Which of an agent's modes approve the agent's own actions, so the header can say why no permission
 * prompt appears (claude-agent-acp 0.101 starts new sessions in `auto`, codex-acp 2.6 in `agent`:
 * users of either otherwise wonder why Tandem never asks). Data, not code: one row per agent's mode
 * catalogue, recognised by a mode id only that catalogue has (`marker`), because a bare id is
 * ambiguous across agents — the older codex-acp had an `auto` mode that still asked before network
 * access. The mode comes from the session's mode config option (category `mode`) when the agent sends
 * config options, else from its ACP session modes, as the header's own picker does.
 */
import type { ConfigOptionView, ModesView } from '../../src/protocol/messages';

/**
 * `all`: it never asks (commands and edits alike); `edits`: file edits without asking, commands still
 * ask; `reviewed`: the agent's own reviewer approves what it judges safe and asks only about the rest.
 */
export type SelfApprovalKind = 'all' | 'edits' | 'reviewed';

export interface SelfApprovalRow {
  /** Who the catalogue belongs to (for the reader of this table and the tests). */
  readonly agent: string;
  /** A mode id only this agent's catalogue has: the row applies when the catalogue lists it. */
  readonly marker: string;
  /** Mode id (or mode option value) → what it approves on its own. Modes not listed ask as usual. */
  readonly modes: Readonly<Record<string, SelfApprovalKind>>;
}

export const SELF_APPROVAL_RULES: readonly SelfApprovalRow[] = [
  // Claude Code (claude-agent-acp, claude-code-acp before it): default "Manual", acceptEdits, plan,
  // auto ("Claude handles permission decisions"), bypassPermissions; dontAsk denies instead of asking.
  { agent: 'Claude Code', marker: 'acceptEdits', modes: { auto: 'reviewed', bypassPermissions: 'all', acceptEdits: 'edits' } },
  // Codex (codex-acp 2.x): read-only, workspace-write, agent ("Auto review": a reviewer model decides
  // approvals), agent-full-access (approval policy "never").
  { agent: 'Codex', marker: 'agent-full-access', modes: { agent: 'reviewed', 'agent-full-access': 'all' } },
];

/** What the header says: the current mode approves the agent's actions on its own. */
export interface SelfApproval {
  readonly kind: SelfApprovalKind;
  /** The mode's id and its name as the agent shows it. */
  readonly modeId: string;
  readonly modeName: string;
}

/** The current mode and the catalogue it is from: the mode config option first, else the session modes. */
function currentMode(modes: ModesView | undefined, options: readonly ConfigOptionView[]): { id: string; name: string; catalogue: string[] } | undefined {
  const option = options.find((o) => o.category === 'mode' && o.type === 'select' && typeof o.currentValue === 'string');
  if (option) {
    const choices = option.choices ?? [];
    const id = String(option.currentValue);
    return { id, name: choices.find((c) => c.value === id)?.name ?? id, catalogue: choices.map((c) => c.value) };
  }
  if (!modes) return undefined;
  const id = modes.currentModeId;
  return { id, name: modes.available.find((m) => m.id === id)?.name ?? id, catalogue: modes.available.map((m) => m.id) };
}

/** Whether the session's current mode approves the agent's own actions; undefined: it asks as usual (or it cannot be told). */
export function selfApproval(
  modes: ModesView | undefined,
  options: readonly ConfigOptionView[],
  rules: readonly SelfApprovalRow[] = SELF_APPROVAL_RULES,
): SelfApproval | undefined {
  const mode = currentMode(modes, options);
  if (!mode) return undefined;
  for (const rule of rules) {
    if (!mode.catalogue.includes(rule.marker) || !Object.hasOwn(rule.modes, mode.id)) continue;
    return { kind: rule.modes[mode.id], modeId: mode.id, modeName: mode.name };
  }
  return undefined;
}
