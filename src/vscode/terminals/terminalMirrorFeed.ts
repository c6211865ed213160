import type { TerminalView } from '../../protocol/messages';
import type { IDisposable } from '../../util/disposable';

/** Follows a thread's terminal output: appended text, or the whole output that replaced it. */
export type FollowTerminalOutput = (listener: (terminalId: string, text: string, replaced: boolean) => void) => IDisposable;

/** Clears the screen and the scrollback and homes the cursor: a replaced output is drawn afresh. */
const RESET = '\x1b[2J\x1b[3J\x1b[H';

/**
 * What the editor's mirror of an agent terminal writes (kept apart from the Pseudoterminal so it
 * needs no editor to test): the command line, the output so far, then what follows. A snapshot
 * that replaced the output (v2 `terminal_update`, claude's `terminal_output`) redraws the
 * terminal from it, so the mirror never keeps showing output the agent took back.
 */
export function feedTerminalMirror(view: TerminalView, follow: FollowTerminalOutput, write: (data: string) => void): IDisposable {
  // A pseudoterminal moves to the line start only on \r.
  const toTerminal = (text: string) => text.replace(/\r?\n/g, '\r\n');
  const header = `\x1b[2m$ ${view.command}\x1b[0m\r\n`;
  write(header);
  write(toTerminal(view.output));
  return follow((id, text, replaced) => {
    if (id !== view.terminalId) return;
    write(replaced ? `${RESET}${header}${toTerminal(text)}` : toTerminal(text));
  });
}
