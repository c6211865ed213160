// Which room (sub-folder) each file of the two flat adapter folders belongs in, for moveRooms.mjs.
// A room is named by what a developer looks for in it; what each room may import is
// lint/adapterRooms.mjs's. A file that is in neither list below makes moveRooms.mjs fail with its
// name: add it to the room it belongs in (or to KEEP) and run it again.

/** Files that stay at the top of their folder. */
export const KEEP = {
  webview: ['tsconfig.json'],
  'src/vscode': [],
};

/** Folders already there before the split, left as they are (their own bundles). */
export const EXISTING_ROOMS = {
  webview: ['highlighter', 'inspector'],
  'src/vscode': [],
};

/** `{ folder: { room: { about, files } } }`; `about` is the room's line in docs/ARCHITECTURE.md. */
export const ROOMS = {
  webview: {
    app: {
      about: 'the page: `main.ts` (the bundle entry), `App` (wires every part to the store and the host), the tab strip, the screen-reader announcements',
      files: ['main.ts', 'app.ts', 'announcements.ts', 'tabs.ts'],
    },
    header: {
      about: 'the header row: account, where the agent runs, quota, the session controls (model, mode, options), the "approves its own actions" badge',
      files: ['header.ts', 'accountRow.ts', 'agentLocation.ts', 'quotaMeter.ts', 'selfApproval.ts', 'selfApprovalBadge.ts', 'sessionControls.ts'],
    },
    thread: {
      about:
        'the conversation log: `Thread`, its slots and pages (only what is near the viewport is built), the scroll pin, search landing, which entry view to build',
      files: ['thread.ts', 'threadSlots.ts', 'slotPages.ts', 'viewportWatch.ts', 'scrollPin.ts', 'searchReveal.ts', 'entryFactory.ts'],
    },
    tools: {
      about: "a tool call's card and what hangs on it: its parts and output, the permission prompt and rule proposal, subagent groups and controls",
      files: ['toolCard.ts', 'toolCardParts.ts', 'toolOutputView.ts', 'permission.ts', 'ruleProposal.ts', 'subagentGroup.ts', 'subagentControls.ts'],
    },
    entries: {
      about:
        "the other entries of the log and what every entry view shares: `ViewContext`, messages (a prompt's Edit and its versions' switch), outcomes, the agent's questions, streamed markdown and cold sections, placeholders, nested (subagent) cards",
      files: [
        'viewContext.ts',
        'entryView.ts',
        'entries.ts',
        'outcomeEntries.ts',
        'agentAsks.ts',
        'markdownStream.ts',
        'coldSections.ts',
        'entryPlaceholder.ts',
        'nestedCards.ts',
        'promptEdit.ts',
        'branchSwitch.ts',
      ],
    },
    composer: {
      about:
        'the prompt box: chips and their tray, attachments, the `/` command menu and `@` mention picker, prompt ghost text, the notes chip, the prompt queue',
      files: [
        'composer.ts',
        'attachments.ts',
        'chipTray.ts',
        'chips.ts',
        'commandMenu.ts',
        'mentionPicker.ts',
        'suggestionList.ts',
        'promptGhost.ts',
        'notesChip.ts',
        'queueView.ts',
      ],
    },
    review: {
      about: 'what the agent changed: the diff view and its model, changed files, review notes, the worktree bar',
      files: ['diffView.ts', 'diffModel.ts', 'diffRequests.ts', 'changedFiles.ts', 'reviewNotes.ts', 'worktreeBar.ts'],
    },
    terminal: {
      about: 'the xterm terminal cards and their look',
      files: ['terminalView.ts', 'terminalLook.ts'],
    },
    markdown: {
      about:
        "markdown to safe DOM, code blocks, the code highlighter's loader and languages (the highlighter itself is `webview/highlighter/`, its own bundle)",
      files: ['markdown.ts', 'codeBlock.ts', 'codeHighlighter.ts', 'codeLanguages.ts', 'highlighterApi.ts'],
    },
    store: {
      about: "the panel's state: `Store` (what the host said), its change keys, snapshot fields, older entries, terminal outputs, worktree state",
      files: ['store.ts', 'storeChanges.ts', 'snapshotFields.ts', 'olderEntries.ts', 'terminalOutputs.ts', 'worktreeState.ts'],
    },
    core: {
      about:
        'what every part uses: DOM helpers, the host bridge (`vscodeApi.ts`), l10n, the live-region announcer, the style nonce, readable widths, the version notice (for the chat panel and the inspector), the `*.css` module type',
      files: ['dom.ts', 'vscodeApi.ts', 'l10n.ts', 'announcer.ts', 'styleNonce.ts', 'readableWidth.ts', 'versionNotice.ts', 'cssModules.d.ts'],
    },
  },
  'src/vscode': {
    host: {
      about:
        '`EditorHost` (builds the `EditorPorts` and owns every adapter below), the commands it registers (`editorCommands.ts`, `hostCommands.ts`), the `ChatSurface` it is given (`chatSurface.ts`), the activity status item',
      files: ['editorHost.ts', 'chatSurface.ts', 'editorCommands.ts', 'hostCommands.ts', 'activityStatus.ts'],
    },
    agents: {
      about:
        'agent entries in settings, installs, Check Agent, the notice (and Update) for entries running an adapter that moved, the launch (proxy, environment), stored sign-in values and their prompt, MCP servers from settings',
      files: [
        'agentSettings.ts',
        'userAgentEntries.ts',
        'agentServerConfig.ts',
        'agentInstaller.ts',
        'agentDoctor.ts',
        'movedAdapterNotice.ts',
        'agentLaunch.ts',
        'agentDestination.ts',
        'agentSecrets.ts',
        'secretPrompt.ts',
        'mcpSettings.ts',
      ],
    },
    editor: {
      about:
        'documents and links: file access through the editor, follow-along, diff editors, links (files and web), asking before outside files, code block actions, Markdown export, subagent documents, what the editor answers the `tandem` MCP server (`editorQueries.ts` over the API and provider commands, the mapping in `editorAnswers.ts`)',
      files: [
        'editorFileAccess.ts',
        'followAlong.ts',
        'diffEditor.ts',
        'linkOpener.ts',
        'externalLinks.ts',
        'outsideAccess.ts',
        'codeBlockActions.ts',
        'codeLanguageIds.ts',
        'markdownExport.ts',
        'subagentDocuments.ts',
        'editorQueries.ts',
        'editorAnswers.ts',
      ],
    },
    review: {
      about: "the review in the editor: `ReviewHost` (the user's saves and file operations), review comments",
      files: ['editorReview.ts', 'reviewComments.ts'],
    },
    worktree: {
      about: 'conversation worktrees in the editor: their commands and dialogs, Apply through the merge editor',
      files: ['editorWorktrees.ts', 'worktreeDialogs.ts', 'mergeEditor.ts'],
    },
    mentions: {
      about: 'what `@` mentions read from the editor: the mention source, workspace files, problems, the git diff',
      files: ['mentionSource.ts', 'workspaceFiles.ts', 'problems.ts', 'gitDiff.ts'],
    },
    terminals: {
      about: 'terminals: "Open in terminal" mirrors, the user\'s terminals\' output, the sign-in terminal',
      files: ['terminalMirror.ts', 'terminalMirrorFeed.ts', 'terminalOutputs.ts', 'signInTerminal.ts'],
    },
    pickers: {
      about: 'quick picks: history (and deleting from it), search, permission rules',
      files: ['historyPicker.ts', 'historyDelete.ts', 'searchPicker.ts', 'rulesPicker.ts'],
    },
    inspector: {
      about: "the protocol inspector's panel, commands and replay",
      files: ['inspector.ts', 'inspectorPanel.ts', 'inspectorReplay.ts'],
    },
    settings: {
      about: "settings: `settings.ts`, the generated `contributions.ts`, remembered session options, the editor's proxy settings",
      files: ['settings.ts', 'contributions.ts', 'rememberedOptions.ts', 'editorProxy.ts'],
    },
    core: {
      about: "what every adapter uses: the output log (masked), localization, webview HTML + CSP, the workspace's storage",
      files: ['outputLog.ts', 'maskedLog.ts', 'localization.ts', 'webviewHtml.ts', 'workspaceStorage.ts'],
    },
  },
};
