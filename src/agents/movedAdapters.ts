/**
 * The ACP adapters that moved: `@zed-industries/claude-agent-acp`, `…/claude-code-acp` and
 * `…/codex-acp` stopped (at 0.23.1, 0.16.x and 0.16.0, June 2026) and go on as
 * `@agentclientprotocol/claude-agent-acp` and `@agentclientprotocol/codex-acp`. The old packages are
 * not marked deprecated, so `npx -y` keeps running last year's adapter without a word: Check Agent and
 * a one-time notice say so (src/vscode/agents/movedAdapterNotice.ts), and this file finds such an
 * entry of `tandem.agents` and rewrites it to the new package.
 *
 * It works on the raw setting value (user-edited JSON, one scope's part of an entry), so every field
 * it does not rewrite — `env`, unknown keys — is kept as the user wrote it. Nothing here touches the
 * editor, so it is unit-tested.
 */
import { isSsh } from '../acp/agentProcess';
import { isRecord } from '../protocol/guards';

/** One package that moved. */
export interface AdapterMove {
  /** The old npm package. */
  readonly from: string;
  /** Its successor. */
  readonly to: string;
  /** The old package's last release, when known (said to the user: "stopped at 0.16.0"). */
  readonly lastVersion?: string;
  /** Executables renamed with the package (`npx --package=… claude-code-acp`): old bin → new bin. */
  readonly bins?: Readonly<Record<string, string>>;
}

export const ADAPTER_MOVES: readonly AdapterMove[] = [
  { from: '@zed-industries/claude-agent-acp', to: '@agentclientprotocol/claude-agent-acp', lastVersion: '0.23.1' },
  // The package before claude-agent-acp: its bin was claude-code-acp.
  { from: '@zed-industries/claude-code-acp', to: '@agentclientprotocol/claude-agent-acp', bins: { 'claude-code-acp': 'claude-agent-acp' } },
  { from: '@zed-industries/codex-acp', to: '@agentclientprotocol/codex-acp', lastVersion: '0.16.0' },
];

/** What an entry runs of a moved adapter, and how it names it. */
export interface MovedAdapter extends AdapterMove {
  /**
   * `package`: a package argument (`npx -y @zed-industries/codex-acp`, `pnpm dlx …`, `--package=…`),
   * rewritten in place; `path`: a local install's file (`node …/node_modules/@zed-industries/…/dist/index.js`),
   * replaced by `npx -y <new package>` with the arguments after it.
   */
  readonly how: 'package' | 'path';
  /** Whether `rewriteMovedEntry` can update it (not a path run on another machine through ssh). */
  readonly rewritable: boolean;
}

/** The prefixes a package may carry in one argument (`--package=@scope/name`). */
const PACKAGE_FLAG = /^(--package=|-p=)/;

/** The move a package argument names (`@zed-industries/codex-acp`, `…@0.16.0`, `…@latest`), if any. */
function packageMove(arg: string): AdapterMove | undefined {
  const spec = arg.replace(PACKAGE_FLAG, '');
  return ADAPTER_MOVES.find((m) => spec === m.from || spec.startsWith(`${m.from}@`));
}

/** The move a file path names (a segment `@zed-industries/codex-acp`, either slash), if any. */
function pathMove(value: string): AdapterMove | undefined {
  const segments = value.split(/[\\/]/);
  return ADAPTER_MOVES.find((m) => {
    const [scope, name] = m.from.split('/');
    return segments.some((s, i) => s === scope && segments[i + 1] === name && i + 1 < segments.length - 1);
  });
}

function stringArgs(value: Record<string, unknown>): string[] | undefined {
  return Array.isArray(value.args) && value.args.every((a) => typeof a === 'string') ? (value.args as string[]) : undefined;
}

/** Where an entry names a moved adapter: a package argument first, else a path (command or argument). */
function locate(value: Record<string, unknown>): { move: AdapterMove; how: 'package' | 'path'; index: number } | undefined {
  const args = stringArgs(value) ?? [];
  for (let i = 0; i < args.length; i++) {
    const move = packageMove(args[i]);
    if (move) return { move, how: 'package', index: i };
  }
  if (typeof value.command === 'string') {
    const move = pathMove(value.command);
    if (move) return { move, how: 'path', index: -1 };
  }
  for (let i = 0; i < args.length; i++) {
    const move = pathMove(args[i]);
    if (move) return { move, how: 'path', index: i };
  }
  return undefined;
}

/**
 * The moved adapter a raw `tandem.agents` entry (or one scope's part of it) runs, or undefined. Not
 * thrown off by junk: anything that is not an object with string `command`/`args` is not one.
 */
export function movedAdapterIn(value: unknown): MovedAdapter | undefined {
  if (!isRecord(value)) return undefined;
  const found = locate(value);
  if (!found) return undefined;
  const overSsh = typeof value.command === 'string' && isSsh(value.command);
  return { ...found.move, how: found.how, rewritable: found.how === 'package' || !overSsh };
}

/**
 * The entry with the moved adapter replaced by its successor, every other field kept; undefined when
 * it runs none or cannot be rewritten here. A package argument becomes the new package (a pinned
 * version is dropped: the old numbers mean nothing for the new package) and a renamed bin after it
 * the new bin; a local install's file becomes `npx -y <new package>` followed by the arguments that
 * came after the file (a runtime's flags before it are for the old script and go).
 */
export function rewriteMovedEntry(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const found = locate(value);
  const moved = movedAdapterIn(value);
  if (!found || !moved?.rewritable) return undefined;
  const args = stringArgs(value) ?? [];
  const { move } = found;
  if (found.how === 'package') {
    const flag = PACKAGE_FLAG.exec(args[found.index])?.[0] ?? '';
    const rewritten = args.map((arg, i) => {
      if (i === found.index) return `${flag}${move.to}`;
      // Another argument naming the same old package (rare), and the renamed bin.
      if (packageMove(arg) === move) return `${PACKAGE_FLAG.exec(arg)?.[0] ?? ''}${move.to}`;
      return (i > found.index && move.bins?.[arg]) || arg;
    });
    return { ...value, args: rewritten };
  }
  const rest = found.index === -1 ? args : args.slice(found.index + 1);
  return { ...value, command: 'npx', args: ['-y', move.to, ...rest] };
}

/** The agents among `entries` (name → raw value) that run a moved adapter, in their order. */
export function movedEntries(entries: unknown): Array<{ name: string; moved: MovedAdapter }> {
  if (!isRecord(entries)) return [];
  const out: Array<{ name: string; moved: MovedAdapter }> = [];
  for (const [name, value] of Object.entries(entries)) {
    const moved = movedAdapterIn(value);
    if (moved) out.push({ name, moved });
  }
  return out;
}
