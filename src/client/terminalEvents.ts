/** What a terminal tells its manager and the session layer: its own side, so terminal.ts and terminalManager.ts import no loop. */
export type TerminalEvent =
  | { kind: 'created'; terminalId: string; command: string }
  | { kind: 'output'; terminalId: string; text: string; truncated: boolean }
  | { kind: 'exit'; terminalId: string; exitCode: number | null; signal: string | null };

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}
