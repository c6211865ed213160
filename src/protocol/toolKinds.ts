/**
 * Tool kinds both sides need: recognising an ACP kind, and the codicon the panel shows for each.
 * Inferring a kind from a tool's name is the host's business (src/session/toolKindInference.ts).
 */
import type { ToolKind } from './messages';

const ACP_KINDS: ReadonlySet<string> = new Set<ToolKind>(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);

/** True for the kinds ACP defines (plus `other`). */
export function isToolKind(value: unknown): value is ToolKind {
  return typeof value === 'string' && ACP_KINDS.has(value);
}

/** Codicon name (without the `codicon-` prefix) for a kind; each kind has its own icon. */
export function codiconFor(kind: ToolKind): string {
  switch (kind) {
    case 'read':
      return 'eye';
    case 'edit':
      return 'edit';
    case 'delete':
      return 'trash';
    case 'move':
      return 'move';
    case 'search':
      return 'search';
    case 'execute':
      return 'terminal';
    case 'think':
      return 'lightbulb';
    case 'fetch':
      return 'globe';
    case 'switch_mode':
      return 'arrow-swap';
    case 'other':
      return 'tools';
    default: {
      // Compile-time exhaustiveness (a new kind fails to compile here). At run time a stale webview
      // may meet a kind it does not know: it gets `other`'s icon instead of a crashed render.
      const unknownKind: never = kind;
      void unknownKind;
      return 'tools';
    }
  }
}
