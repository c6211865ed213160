import type { DocumentSymbol, EditorLocation, EditorPosition } from './editorToolsPort';
import { modelRange, PATH_PROPERTY, POSITION_SCHEMA, type EditorTool, type ToolContext } from './editorTool';
import { capList, jsonOutput, MAX_LIST_ITEMS } from './toolResults';

/**
 * The tools that ask the language extensions the user has installed (through VS Code's provider
 * commands in the adapter): symbols, definitions, references, hovers. Positions are 1-based here.
 */

const symbols: EditorTool = {
  name: 'symbols',
  title: 'Workspace symbols',
  kind: 'search',
  readOnly: true,
  description:
    'Finds classes, functions, variables and other symbols by name across the workspace, from the language servers (like "Go to Symbol in Workspace"). ' +
    'Faster and more precise than a text search for "where is X defined". The query is matched fuzzily against symbol names.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', minLength: 1, description: 'The symbol name, or part of it.' } },
    required: ['query'],
    additionalProperties: false,
  },
  async run(args, cx) {
    const found = await cx.port.workspaceSymbols(args.query as string);
    if (found.length === 0) {
      return { text: `No symbols match ${JSON.stringify(args.query)} (or no language server has indexed the workspace yet).` };
    }
    const { items, note } = capList(found, 'symbols');
    return jsonOutput(
      {
        symbols: items.map((s) => ({
          name: s.name,
          kind: s.kind,
          containerName: s.containerName || undefined,
          path: cx.show(s.location.path),
          ...modelRange(s.location.range),
        })),
      },
      note,
    );
  },
};

const documentSymbols: EditorTool = {
  name: 'document_symbols',
  title: 'Outline',
  kind: 'read',
  readOnly: true,
  description:
    'The outline of one file from its language server: its classes, functions, methods and so on, nested, each with its kind and 1-based range. Use it to find your way in a long file before reading parts of it.',
  inputSchema: { type: 'object', properties: { path: PATH_PROPERTY }, required: ['path'], additionalProperties: false },
  async run(args, cx) {
    const real = await cx.resolve(args.path as string, 'read');
    const outline = await cx.port.documentSymbols(real);
    if (outline.length === 0) return { text: `No symbols in ${cx.show(real)} (its language may have no outline provider).` };
    const budget = { left: MAX_LIST_ITEMS * 2, total: 0 };
    const shown = outline.map((s) => shownSymbol(s, budget)).filter((s) => s !== undefined);
    const note =
      budget.total > MAX_LIST_ITEMS * 2
        ? `[truncated: showing ${MAX_LIST_ITEMS * 2} of ${budget.total} symbols; read the file in ranges for the rest]`
        : undefined;
    return jsonOutput({ path: cx.show(real), symbols: shown }, note);
  },
};

/** A symbol and its children, depth first, until the budget of symbols is spent. */
function shownSymbol(s: DocumentSymbol, budget: { left: number; total: number }): Record<string, unknown> | undefined {
  budget.total++;
  if (budget.left <= 0) {
    for (const child of s.children ?? []) shownSymbol(child, budget);
    return undefined;
  }
  budget.left--;
  const children = (s.children ?? []).map((c) => shownSymbol(c, budget)).filter((c) => c !== undefined);
  return { name: s.name, kind: s.kind, detail: s.detail || undefined, ...modelRange(s.range), ...(children.length > 0 ? { children } : {}) };
}

type PositionQuery = (cx: ToolContext, path: string, at: EditorPosition) => Promise<EditorLocation[]>;

function locationTool(name: string, title: string, description: string, none: string, query: PositionQuery): EditorTool {
  return {
    name,
    title,
    kind: 'search',
    readOnly: true,
    description,
    inputSchema: POSITION_SCHEMA,
    async run(args, cx) {
      const real = await cx.resolve(args.path as string, 'read');
      const found = await query(cx, real, position(args));
      if (found.length === 0) return { text: `${none} at line ${args.line as number}, character ${args.character as number} of ${cx.show(real)}.` };
      const { items, note } = capList(found, 'locations');
      return jsonOutput({ locations: items.map((l) => ({ path: cx.show(l.path), ...modelRange(l.range) })) }, note);
    },
  };
}

function position(args: Record<string, unknown>): EditorPosition {
  return { line: (args.line as number) - 1, character: (args.character as number) - 1 };
}

const definition = locationTool(
  'definition',
  'Go to definition',
  'Where the symbol at a position is defined, from the language server (like "Go to Definition"): follows imports, overloads and re-exports the way the editor does. Give the 1-based line and a column inside the symbol.',
  'No definition found',
  (cx, path, at) => cx.port.definition(path, at),
);

const references = locationTool(
  'references',
  'Find references',
  'Every place the symbol at a position is used, from the language server (like "Find All References"), the declaration included. Use it before renaming or changing a signature. Give the 1-based line and a column inside the symbol.',
  'No references found',
  (cx, path, at) => cx.port.references(path, at),
);

const hover: EditorTool = {
  name: 'hover',
  title: 'Hover',
  kind: 'read',
  readOnly: true,
  description:
    "What the editor's hover shows at a position: the type, signature and documentation of the symbol there, from the language server. Give the 1-based line and a column inside the symbol.",
  inputSchema: POSITION_SCHEMA,
  async run(args, cx) {
    const real = await cx.resolve(args.path as string, 'read');
    const texts = await cx.port.hover(real, position(args));
    if (texts.length === 0) return { text: 'No hover information at that position.' };
    return { text: texts.join('\n\n---\n\n') };
  },
};

export const NAVIGATION_TOOLS: readonly EditorTool[] = [symbols, documentSymbols, definition, references, hover];
