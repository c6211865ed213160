import { roomRules } from '../scripts/lintRooms.mjs';

// The rooms inside the two adapter folders (webview/ and src/vscode/) and what each may import;
// docs/ARCHITECTURE.md draws them, scripts/rooms/roomMap.mjs says which file is in which. Each table
// is a DAG: a room lists only rooms below it, so an import back up (or sideways into a room not
// listed) fails lint. eslint.config.mjs spreads `adapterRoomRules`.
//
// The rules come from the same builder as the host's LAYERS (scripts/lintRooms.mjs): each relative
// import is resolved and judged by the room it lands in, so a sub-room named like a host room
// (src/vscode/review vs src/review) is never mistaken for it, at any depth, and each prefix has its
// own rule id, so a file in src/vscode/ is held by both tables.

/** `{ folder: { room: rooms it may import } }`. */
export const ADAPTER_ROOMS = {
  webview: {
    core: [],
    store: [],
    markdown: ['core'],
    terminal: ['core', 'store'],
    composer: ['core', 'store'],
    review: ['core', 'store'],
    header: ['core', 'store'],
    entries: ['core', 'store', 'markdown', 'terminal', 'composer'],
    tools: ['core', 'store', 'markdown', 'terminal', 'review', 'entries'],
    thread: ['core', 'store', 'markdown', 'terminal', 'entries', 'tools'],
    app: ['core', 'store', 'markdown', 'terminal', 'composer', 'review', 'header', 'entries', 'tools', 'thread'],
    // Their own bundles, older than the split.
    highlighter: ['markdown'],
    inspector: ['core'],
  },
  'src/vscode': {
    core: [],
    settings: [],
    terminals: ['core', 'settings'],
    agents: ['core', 'settings'],
    editor: ['core', 'settings'],
    mentions: ['core', 'settings', 'terminals'],
    pickers: ['core', 'settings'],
    review: ['core', 'settings', 'editor'],
    worktree: ['core', 'settings', 'editor', 'review'],
    inspector: ['core', 'settings', 'agents'],
    host: ['core', 'settings', 'terminals', 'agents', 'editor', 'mentions', 'pickers', 'review', 'worktree', 'inspector'],
  },
};

export const adapterRoomRules = Object.entries(ADAPTER_ROOMS).flatMap(([folder, rooms]) => roomRules(folder, rooms));
