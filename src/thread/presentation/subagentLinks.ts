/**
 * Which card a subagent's call belongs under. Agents mark children in `_meta` (Claude's adapters:
 * `_meta.claudeCode.parentToolUseId`; other vendors' `parentToolCallId` / `parent_tool_use_id`
 * under their own key); agents that mark nothing (Cline's `spawn_agent`, Codex's
 * `_meta.codex.toolName: "Agent"`) run a subagent while its call is in progress, so a call that
 * starts while such a call is the only one open belongs to it — unless the agent marks children
 * elsewhere in the thread. A link is made once, when the child arrives: a parent that arrives later
 * leaves the child at the top level, and a link that would close a cycle is never made.
 */
import { isRecord } from '../../protocol/guards';

const PARENT_FIELDS = ['parentToolUseId', 'parentToolCallId', 'parent_tool_use_id', 'parent_tool_call_id'];

/** The parent toolCallId an update's `_meta` names, when it names one. */
export function metaParentId(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  for (const value of [meta, ...Object.values(meta)]) {
    if (!isRecord(value)) continue;
    for (const field of PARENT_FIELDS) {
      const id = value[field];
      if (typeof id === 'string' && id.length > 0 && id.length <= 500) return id;
    }
  }
  return undefined;
}

/** What links need to know of a card. */
export interface LinkCard {
  toolCallId: string;
  parentToolCallId?: string;
  /** The call starts a subagent. */
  subagent: boolean;
  /** Pending or in progress. */
  open: boolean;
  inProgress: boolean;
}

export class SubagentLinks {
  /** Set once any update named a parent: then nothing is inferred. */
  private explicit = false;

  /**
   * The parent of a new card: the one `_meta` names (when known and no cycle), else the only open
   * subagent call in progress when every other open call is one of its descendants.
   */
  parentOf(toolCallId: string, meta: unknown, find: (id: string) => LinkCard | undefined, open: () => Iterable<LinkCard>): string | undefined {
    const named = metaParentId(meta);
    if (named !== undefined) {
      this.explicit = true;
      if (named === toolCallId || find(named) === undefined || this.descends(named, toolCallId, find)) return undefined;
      return named;
    }
    if (this.explicit) return undefined;
    let runner: LinkCard | undefined;
    const others: LinkCard[] = [];
    for (const card of open()) {
      if (card.toolCallId === toolCallId) continue;
      if (card.subagent && card.inProgress) {
        if (runner !== undefined) return undefined;
        runner = card;
      } else others.push(card);
    }
    if (runner === undefined) return undefined;
    const root = runner.toolCallId;
    return others.every((c) => this.descends(c.toolCallId, root, find)) ? root : undefined;
  }

  /** True when `id`'s chain of parents reaches `ancestor` (bounded: a broken chain ends the walk). */
  private descends(id: string, ancestor: string, find: (id: string) => LinkCard | undefined): boolean {
    let current = find(id)?.parentToolCallId;
    for (let hops = 0; current !== undefined && hops < 64; hops++) {
      if (current === ancestor) return true;
      current = find(current)?.parentToolCallId;
    }
    return false;
  }

  clear(): void {
    this.explicit = false;
  }
}
