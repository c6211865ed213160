// Its own side: EditorHost is given one and HostCommands uses it, so hostCommands.ts need not import editorHost.ts back.

/** What the host asks of the chat view (kept as an interface so the host does not own the view). */
export interface ChatSurface {
  /** True when the panel is visible and has focus, so a permission prompt needs no notification. */
  isVisible(): boolean;
  reveal(): void;
}
